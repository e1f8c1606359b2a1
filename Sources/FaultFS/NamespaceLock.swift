#if canImport(Glibc)
import Glibc
#endif

/// Orders directory renames against the entry changes that resolve paths inside the renamed tree (create,
/// mkdir, mknod, symlink, link, unlink, rmdir, rename): a directory rename changes the backing path of every
/// name under it, so an entry change must not resolve its path before the rename and act on the backing
/// directory after it. Entry changes share the lock, a directory rename holds it alone, and each takes it only
/// after its rules acted, around its path resolution and backing syscalls, so a `delay` or `hold` never keeps
/// another call waiting here. glibc's default rwlock prefers readers: entry changes never wait for each other,
/// even while a directory rename waits. Not for FUSE callbacks' actors: a plain pthread lock (no actors in FUSE
/// callbacks).
final class NamespaceLock: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` holding the lock shared (an entry change) or alone (a directory rename).
    func run<T>(exclusive: Bool, _ body: () -> T) -> T {
        if exclusive { pthread_rwlock_wrlock(lock) } else { pthread_rwlock_rdlock(lock) }
        defer { pthread_rwlock_unlock(lock) }
        return body()
    }
}
