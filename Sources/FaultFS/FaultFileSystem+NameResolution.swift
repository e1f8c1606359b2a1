import CFuse3
import CLifeboatSys
#if canImport(Glibc)
import Glibc
#endif

/// Names as concurrent requests see them (low-level API). The kernel sends most requests by node id and FaultFS
/// turns the id into a backing path (`NodeTable.path`); a namespace change applies to the backing directory
/// first and to the node table right after, and the kernel does not serialize it with requests that reach a
/// node it already holds (an open, a getattr, a lookup revalidating a cached entry). So that every name is
/// either old or new for every caller, as natively:
/// * each change is one atomic step in the backing directory (`rename` links a replaced file into the trash
///   first, then renames over it);
/// * `changingNamespace` brackets a change from its backing syscall to its node-table update, and
///   `resolvingNames` resolves again when a resolution failed or found another inode while one ran;
/// * a node whose name an unlink or rename removes keeps an O_PATH anchor of its inode (`NodeTable.anchor`),
///   so a process whose path walk reached it before the change still opens and stats it, as natively the
///   walk's dentry pins the inode (libfuse's passthrough_ll serves every node through such a descriptor);
/// * entry changes resolve their paths again once their rules acted (`naming`, `current`) under `entryLock`,
///   which a directory rename holds alone (`NamespaceLock`);
/// * a nameless node's attributes are not cached (`attributeTimeout`).
extension FaultFileSystem {
    /// O_PATH (Linux, every architecture's value; Swift's Glibc module does not export it).
    static let openPathOnly: Int32 = 0o10000000

    /// Records that mount path `path`, named by the request on this thread, is `name` in directory node `parent`
    /// (or, without a name, node `parent` itself), so that an entry change can resolve it again once its rules
    /// acted (`current`). Returns `path`.
    @discardableResult
    func naming(_ parent: fuse_ino_t, _ name: String?, as path: String) -> String {
        let nodes = self.nodes
        FuseRequestScope.current?.names[path] = {
            guard let p = nodes.path(UInt64(parent)) else { return nil }
            return name.map { Self.join(p, $0) } ?? p
        }
        return path
    }

    /// `path` as it is now: resolved again from its node when the request named it (`naming`), since a
    /// directory rename may have moved it since the request began. Called holding `entryLock`.
    func current(_ path: String) -> String {
        FuseRequestScope.current?.names[path].flatMap { $0() } ?? path
    }

    /// How long the kernel may keep the attributes of `node` just computed: not at all when it has no name (or a
    /// namespace change is being applied). When an unlink or a rename over a file replies, the kernel lowers its
    /// cached st_nlink of the node whose name went (fuse_entry_unlinked: drop_nlink; FaultFS gives every hard
    /// link its own node, so only that node). A count computed after the backing change and cached before that
    /// reply was lowered twice: a file whose other name remained showed st_nlink 0 to a concurrent stat. With
    /// timeout 0 (the kernel's attr_valid 0: never valid) every stat of such a node asks FaultFS, which answers
    /// the true count; a named node's count is computed before or after the change as a whole.
    func attributeTimeout(_ node: UInt64) -> Double {
        nodes.path(node) == nil || namespaceChangesInFlight.load(ordering: .sequentiallyConsistent) > 0 ? 0 : Self.cacheTimeout
    }

    /// Runs a namespace change's backing syscall and node-table update as one step for `resolvingNames`.
    func changingNamespace<T>(_ body: () -> T) -> T {
        namespaceChangesInFlight.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer {
            namespaceChangesDone.wrappingAdd(1, ordering: .sequentiallyConsistent)
            namespaceChangesInFlight.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        }
        return body()
    }

    /// Runs `attempt` (which resolves node names afresh each time) until its result is not `stale`, or until no
    /// namespace change overlapped it: then a stale result is the answer (the name really is gone or leads
    /// elsewhere, as after a crash). `discard` releases a result that is thrown away. A change in flight takes
    /// microseconds (rules act before it starts), so the waits are short; they are bounded all the same.
    func resolvingNames<T>(_ attempt: () -> (value: T, stale: Bool), discard: (T) -> Void = { _ in }) -> T {
        var tries = 0
        while true {
            let doneBefore = namespaceChangesDone.load(ordering: .sequentiallyConsistent)
            let busyBefore = namespaceChangesInFlight.load(ordering: .sequentiallyConsistent) > 0
            let r = attempt()
            if !r.stale { return r.value }
            let overlapped = busyBefore || namespaceChangesInFlight.load(ordering: .sequentiallyConsistent) > 0
                || namespaceChangesDone.load(ordering: .sequentiallyConsistent) != doneBefore
            if !overlapped || tries == 50 { return r.value }
            discard(r.value)
            tries += 1
            var spins = 0
            while namespaceChangesInFlight.load(ordering: .sequentiallyConsistent) > 0 && spins < 1_000 {
                if spins < 100 { sched_yield() } else { usleep(100) }
                spins += 1
            }
        }
    }

    /// Before an unlink or a rename takes `path` away from `node`: anchors the node to its inode (see
    /// `NodeTable.anchor`). Directories are not anchored (a removed directory is empty and cannot be opened
    /// for anything a racing caller would notice).
    func anchorBeforeRemoval(_ node: UInt64?, path: String) {
        guard let node, let ino = nodes.ino(node) else { return }
        let fd = lb_openat(backing.dirFD, backing.rel(path), Self.openPathOnly | O_NOFOLLOW | O_CLOEXEC, 0)
        guard fd >= 0 else { return }
        var st = stat()
        if fstat(fd, &st) == 0 && UInt64(st.st_ino) == ino && !isDirectory(st) {
            nodes.anchor(node, fd: fd, path: path)
        } else {
            close(fd)
        }
    }

    /// Opens node `node`'s backing inode with `flags` (a backing descriptor's): by its name now, or through its
    /// anchor once the name leads elsewhere or nowhere. Returns the descriptor or -errno.
    func openNode(_ node: UInt64, flags: Int32) -> Int32 {
        resolvingNames({ () -> (value: Int32, stale: Bool) in
            let ino = nodes.ino(node)
            if let p = nodes.path(node) {
                if backing.isHidden(p) { return (-ENOENT, false) }
                let fd = lb_openat(backing.dirFD, backing.rel(p), flags, 0)
                if fd >= 0 {
                    var st = stat()
                    if ino == nil || (fstat(fd, &st) == 0 && UInt64(st.st_ino) == ino) { return (fd, false) }
                    if let a = openAnchor(node, flags: flags) { close(fd); return (a, false) }
                    return (fd, true)
                }
                let e = errno
                if e != ENOENT && e != ENOTDIR { return (-e, false) }
            }
            if let a = openAnchor(node, flags: flags) { return (a, false) }
            return (-ENOENT, true)
        }, discard: { if $0 >= 0 { close($0) } })
    }

    private func openAnchor(_ node: UInt64, flags: Int32) -> Int32? {
        nodes.withAnchor(node) { a in
            let fd = lb_openat(AT_FDCWD, "/proc/self/fd/\(a)", flags, 0)
            return fd >= 0 ? fd : -errno
        }
    }

    /// Attributes of node `node` without an open handle: by its name now, or, once the name leads elsewhere or
    /// nowhere, through an open handle of its inode or its anchor (as fstat: st_nlink may be 0). 0 or -errno.
    func statNode(_ node: UInt64, _ st: UnsafeMutablePointer<stat>) -> Int32 {
        resolvingNames { () -> (value: Int32, stale: Bool) in
            let ino = nodes.ino(node)
            if let p = nodes.path(node) {
                let r = attributes(p, st, fd: nil)
                if r == 0 && (ino == nil || UInt64(st.pointee.st_ino) == ino) { return (0, false) }
                if r != 0 && r != -ENOENT && r != -ENOTDIR { return (r, false) }
                if let u = statUnnamed(node, st) { return (u, false) }
                return (r, true)
            }
            if let u = statUnnamed(node, st) { return (u, false) }
            return (-ENOENT, true)
        }
    }

    /// The anchor first: it is used under the node table's lock, so it cannot be closed meanwhile; another
    /// process's handle can be released (and its descriptor closed) while it is stat'ed.
    private func statUnnamed(_ node: UInt64, _ st: UnsafeMutablePointer<stat>) -> Int32? {
        if let r = nodes.withAnchor(node, { a in attributes(nil, st, fd: a) }) { return r }
        if let fi = orphanFileInfo(fuse_ino_t(node)), let h = handle(fi.fh) { return attributes(nil, st, fd: h.fd) }
        return nil
    }

    /// Attributes of `name` in directory node `parent` (a lookup), resolving the directory's path again when a
    /// concurrent rename moved it meanwhile. 0 or -errno.
    func statChild(_ parent: UInt64, _ name: String, _ st: UnsafeMutablePointer<stat>) -> Int32 {
        resolvingNames { () -> (value: Int32, stale: Bool) in
            guard let dir = nodes.path(parent) else { return (-ENOENT, true) }
            let r = attributes(Self.join(dir, name), st, fd: nil)
            return (r, r == -ENOENT || r == -ENOTDIR)
        }
    }
}
