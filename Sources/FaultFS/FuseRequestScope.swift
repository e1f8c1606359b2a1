import CFuse3
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The low-level request a FUSE worker thread is serving, and the kernel notifications it must send once it has
/// replied. The caller's pid, uid, gid and umask come from `fuse_req_ctx` of this request (the high-level API's
/// `fuse_get_context` must not be called in a low-level session: its thread key is never created there).
/// Entry and page invalidations wait for the reply because the kernel may be holding a lock of the very
/// directory or page the request is about, which such an invalidation would wait for; attribute-only ones go
/// out at once (see `FaultFileSystem.notify`; docs/faultfs.md, "Kernel caches").
final class FuseRequestScope {
    let request: fuse_req_t
    /// The caller, copied at the start: the request is freed by its reply, which may come before the last use.
    let context: fuse_ctx?
    var notices: [KernelNotice] = []
    /// Mount paths this request named by node, each with how to find it again (see `FaultFileSystem.current`).
    var names: [String: () -> String?] = [:]

    init(_ request: fuse_req_t) {
        self.request = request
        context = fuse_req_ctx(request)?.pointee
    }

    /// The scope of the request served on the calling thread, if any.
    static var current: FuseRequestScope? {
        guard let raw = pthread_getspecific(scopeKey) else { return nil }
        return Unmanaged<FuseRequestScope>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Runs `body` with `request` as the calling thread's request (the scope is alive for the whole call).
    static func serving<T>(_ request: fuse_req_t, _ body: (FuseRequestScope) -> T) -> T {
        let scope = FuseRequestScope(request)
        pthread_setspecific(scopeKey, Unmanaged.passUnretained(scope).toOpaque())
        defer { pthread_setspecific(scopeKey, nil) }
        return withExtendedLifetime(scope) { body(scope) }
    }
}

/// The thread key behind `FuseRequestScope.current` (created once, on first use).
private let scopeKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

/// Whether the daemon serves with libfuse's high-level API (`--high-level`): only then does `fuse_get_context`
/// describe the calling request.
let highLevelAPIActive = Atomic<Bool>(false)

/// The calling request's context: the low-level request's, else the high-level API's, else nil.
func currentFuseContext() -> (pid: pid_t, uid: uid_t, gid: gid_t, umask: mode_t)? {
    if let scope = FuseRequestScope.current {
        guard let c = scope.context else { return nil }
        return (c.pid, c.uid, c.gid, c.umask)
    }
    if highLevelAPIActive.load(ordering: .relaxed), let c = fuse_get_context()?.pointee {
        return (c.pid, c.uid, c.gid, c.umask)
    }
    return nil
}

/// The calling request's supplementary groups (libfuse reads them from /proc), at most `list.count`; -errno on
/// failure. Only before the request's reply.
func currentFuseGroups(_ list: UnsafeMutableBufferPointer<gid_t>) -> Int32 {
    if let scope = FuseRequestScope.current {
        return fuse_req_getgroups(scope.request, Int32(list.count), list.baseAddress)
    }
    if highLevelAPIActive.load(ordering: .relaxed) { return fuse_getgroups(Int32(list.count), list.baseAddress) }
    return -ENOSYS
}
