import CFuse3
import CLifeboatSys
#if canImport(Glibc)
import Glibc
#endif

/// The node-id side of the low-level API: lookups and entry replies, attributes of nodes that lost their name,
/// setattr split into the path operations, and readdir by offset. Everything that touches the crash model is
/// the path-based operations' (Operations*.swift).
extension FaultFileSystem {
    /// How long the kernel may keep an attribute or entry without asking again. Above zero because every change
    /// FaultFS makes behind the kernel's back is notified (`invalidateKernelCaches`); negative entries are not
    /// cached (a crash can bring a name back, and the kernel holds no node to notify for it).
    static let cacheTimeout: Double = 1.0

    /// "/dir" + "name".
    static func join(_ dir: String, _ name: String) -> String { dir == "/" ? "/" + name : dir + "/" + name }

    /// A fuse_file_info for a node without a name: one of its backing inode's open handles.
    func orphanFileInfo(_ node: fuse_ino_t) -> fuse_file_info? {
        guard let ino = nodes.ino(UInt64(node)), let id = handleID(forIno: ino) else { return nil }
        var fi = fuse_file_info()
        fi.fh = id
        return fi
    }

    /// The entry reply for `name` in `parent` with attributes `st` (one more lookup of its node). `since` is the
    /// crash generation when the request began: after a crash its stat may be from before, so the kernel must
    /// not keep it.
    func entryParam(_ parent: fuse_ino_t, _ name: String, _ st: stat, since: UInt64) -> fuse_entry_param {
        var e = fuse_entry_param()
        e.ino = fuse_ino_t(nodes.lookedUp(parent: UInt64(parent), name: name, ino: UInt64(st.st_ino)))
        e.generation = NodeTable.generation
        e.attr = st
        let timeout = epoch.load(ordering: .sequentiallyConsistent) == since ? Self.cacheTimeout : 0
        e.attr_timeout = timeout
        e.entry_timeout = timeout
        return e
    }

    /// Runs a request that replies with an entry (lookup, create, mknod, mkdir, symlink, link), counted in flight
    /// until it has replied, with the crash generation at its start. The kernel keeps no version for entries: a
    /// lookup that stat'ed before a crash and replies after the crash's notifications would leave a stale name,
    /// so such a reply gets timeout 0 (`entryParam`), and a crash notifies the entries once more when every
    /// entry request in flight during it has replied (`invalidateAfterCrash`).
    func producingEntry(_ body: (UInt64) -> Void) {
        entryRequestsInFlight.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer { entryRequestsInFlight.wrappingSubtract(1, ordering: .sequentiallyConsistent) }
        body(epoch.load(ordering: .sequentiallyConsistent))
    }

    func llLookup(_ req: fuse_req_t, _ parent: fuse_ino_t, _ name: String) {
        producingEntry { since in lookup(req, parent, name, since: since) }
    }

    private func lookup(_ req: fuse_req_t, _ parent: fuse_ino_t, _ name: String, since: UInt64) {
        guard let dir = nodes.path(UInt64(parent)) else { return reply(req, -ENOENT) }
        if let e = check(.getattr, [Self.join(dir, name)]).errnoValue { return reply(req, -e) }
        var st = stat()
        let r = statChild(UInt64(parent), name, &st)
        if r != 0 {
            if r == -ENOENT { nodes.removeName(parent: UInt64(parent), name: name) }
            return reply(req, r)
        }
        var e = entryParam(parent, name, st, since: since)
        fuse_reply_entry(req, &e)
    }

    func llGetattr(_ req: fuse_req_t, _ node: fuse_ino_t, _ fi: UnsafeMutablePointer<fuse_file_info>?) {
        var st = stat()
        let path = nodes.path(UInt64(node))
        if let path, let e = check(.getattr, [path]).errnoValue { return reply(req, -e) }
        let r: Int32
        if let h = fi.flatMap({ handle($0.pointee.fh) }) {
            r = attributes(path, &st, fd: h.fd)
        } else {
            // By its name, or, open or anchored without one (unlinked, renamed over): through its inode, as
            // fstat is natively.
            r = statNode(UInt64(node), &st)
        }
        if r != 0 { return reply(req, r) }
        fuse_reply_attr(req, &st, attributeTimeout(UInt64(node)))
    }

    /// setattr: chown, chmod, truncate and utimens in that order (as the kernel splits them natively), then the
    /// new attributes.
    func llSetattr(_ req: fuse_req_t, _ node: fuse_ino_t, _ attr: UnsafeMutablePointer<stat>?, _ toSet: Int32,
                   _ fi: UnsafeMutablePointer<fuse_file_info>?) {
        guard let attr else { return reply(req, -EINVAL) }
        let path = nodes.path(UInt64(node))
        var file = fi?.pointee ?? (path == nil ? orphanFileInfo(node) : nil)
        if path == nil && file == nil { return reply(req, -ENOENT) }
        let a = attr.pointee
        func run(_ body: (UnsafeMutablePointer<fuse_file_info>?) -> Int32) -> Int32 {
            if file != nil { return withUnsafeMutablePointer(to: &file!) { body($0) } }
            return body(nil)
        }
        var r: Int32 = 0
        if toSet & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID) != 0 {
            let uid = toSet & FUSE_SET_ATTR_UID != 0 ? a.st_uid : uid_t.max
            let gid = toSet & FUSE_SET_ATTR_GID != 0 ? a.st_gid : gid_t.max
            r = run { chown(path, uid, gid, $0) }
        }
        if r == 0 && toSet & FUSE_SET_ATTR_MODE != 0 {
            r = run { chmod(path, a.st_mode & 0o7777, $0) }
        }
        if r == 0 && toSet & FUSE_SET_ATTR_SIZE != 0 {
            r = run { truncate(path, Int64(a.st_size), $0) }
        }
        let timeBits = FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME | FUSE_SET_ATTR_ATIME_NOW | FUSE_SET_ATTR_MTIME_NOW
        if r == 0 && toSet & timeBits != 0 {
            let omit = timespec(tv_sec: 0, tv_nsec: Int((1 << 30) - 2)), now = timespec(tv_sec: 0, tv_nsec: Int((1 << 30) - 1))
            var tv = [omit, omit]
            if toSet & FUSE_SET_ATTR_ATIME_NOW != 0 { tv[0] = now } else if toSet & FUSE_SET_ATTR_ATIME != 0 { tv[0] = a.st_atim }
            if toSet & FUSE_SET_ATTR_MTIME_NOW != 0 { tv[1] = now } else if toSet & FUSE_SET_ATTR_MTIME != 0 { tv[1] = a.st_mtim }
            r = tv.withUnsafeBufferPointer { b in run { utimens(path, b.baseAddress, $0) } }
        }
        if r != 0 { return reply(req, r) }
        // The inode's other names (hard links) hold their own cached attributes.
        notifySiblings(node)
        var st = stat()
        r = run { getattr(path, &st, $0) }
        if r != 0 { return reply(req, r) }
        fuse_reply_attr(req, &st, Self.cacheTimeout)
    }

    func llReadlink(_ req: fuse_req_t, _ node: fuse_ino_t) {
        guard let path = nodes.path(UInt64(node)) else { return reply(req, -ENOENT) }
        var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let r = buf.withUnsafeMutableBufferPointer { readlink(path, $0.baseAddress!, $0.count) }
        if r != 0 { return reply(req, r) }
        fuse_reply_readlink(req, buf)
    }

    /// mknod, mkdir, symlink: `make` creates the entry at its mount path; the reply is the new entry.
    func llMakeEntry(_ req: fuse_req_t, _ parent: fuse_ino_t, _ name: String, _ make: (String) -> Int32) {
        producingEntry { since in
            guard let dir = nodes.path(UInt64(parent)) else { return reply(req, -ENOENT) }
            let path = naming(parent, name, as: Self.join(dir, name))
            let r = make(path)
            if r != 0 { return reply(req, r) }
            replyEntry(req, parent, name, since: since)
        }
    }

    /// The entry reply for `name` just made in `parent` (found again by its directory node: a concurrent
    /// directory rename may have moved it).
    private func replyEntry(_ req: fuse_req_t, _ parent: fuse_ino_t, _ name: String, since: UInt64) {
        var st = stat()
        let r = statChild(UInt64(parent), name, &st)
        if r != 0 { return reply(req, r) }
        var e = entryParam(parent, name, st, since: since)
        fuse_reply_entry(req, &e)
    }

    func llLink(_ req: fuse_req_t, _ node: fuse_ino_t, _ parent: fuse_ino_t, _ name: String) {
        producingEntry { since in link(req, node, parent, name, since: since) }
    }

    private func link(_ req: fuse_req_t, _ node: fuse_ino_t, _ parent: fuse_ino_t, _ name: String, since: UInt64) {
        guard let from = nodes.path(UInt64(node)), let dir = nodes.path(UInt64(parent)) else { return reply(req, -ENOENT) }
        naming(node, nil, as: from)
        let to = naming(parent, name, as: Self.join(dir, name))
        let r = link(from, to)
        if r != 0 { return reply(req, r) }
        // The other names of the inode now count one more link.
        if let ino = nodes.ino(UInt64(node)) { invalidateKernelCaches([], inos: [ino]) }
        replyEntry(req, parent, name, since: since)
    }

    func llRemove(_ req: fuse_req_t, _ parent: fuse_ino_t, _ name: String, directory: Bool) {
        guard let dir = nodes.path(UInt64(parent)) else { return reply(req, -ENOENT) }
        let victimNode = nodes.child(UInt64(parent), name)
        let victim = victimNode.flatMap { nodes.ino($0) }
        let path = naming(parent, name, as: Self.join(dir, name))
        if !directory { anchorBeforeRemoval(victimNode, path: path) }
        let applied = { self.nodes.removeName(parent: UInt64(parent), name: name) }
        let r = directory ? rmdir(path, applied: applied) : unlink(path, applied: applied)
        if r == 0, let victim, !directory { invalidateKernelCaches([], inos: [victim]) }
        reply(req, r)
    }

    func llRename(_ req: fuse_req_t, _ parent: fuse_ino_t, _ name: String, _ newParent: fuse_ino_t, _ newName: String,
                  _ flags: UInt32) {
        guard let dir = nodes.path(UInt64(parent)), let newDir = nodes.path(UInt64(newParent)) else { return reply(req, -ENOENT) }
        let victimNode = nodes.child(UInt64(newParent), newName)
        let victim = victimNode.flatMap { nodes.ino($0) }
        let exchange = flags & UInt32(LB_RENAME_EXCHANGE) != 0
        let from = naming(parent, name, as: Self.join(dir, name))
        let to = naming(newParent, newName, as: Self.join(newDir, newName))
        if !exchange { anchorBeforeRemoval(victimNode, path: to) }
        let r = rename(from, to, flags: flags) {
            self.nodes.renamed(parent: UInt64(parent), name: name, newParent: UInt64(newParent), newName: newName,
                               exchange: exchange)
        }
        // A replaced file's other names count one link less.
        if r == 0, let victim { invalidateKernelCaches([], inos: [victim]) }
        reply(req, r)
    }

    func llOpen(_ req: fuse_req_t, _ node: fuse_ino_t, _ fi: UnsafeMutablePointer<fuse_file_info>?, directory: Bool) {
        guard let fi else { return reply(req, -EINVAL) }
        // A node without a name now is opened through its anchor (see `openNode`), under its last name.
        guard let path = nodes.path(UInt64(node)) ?? nodes.anchorPath(UInt64(node)) else { return reply(req, -ENOENT) }
        let r = directory ? opendir(path, fi, node: UInt64(node)) : open(path, fi, node: UInt64(node))
        if r != 0 { return reply(req, r) }
        // The open was interrupted: no release will come for this handle.
        if fuse_reply_open(req, fi) != 0 { _ = directory ? releasedir(fi) : release(path, fi) }
    }

    func llCreate(_ req: fuse_req_t, _ parent: fuse_ino_t, _ name: String, _ mode: mode_t,
                  _ fi: UnsafeMutablePointer<fuse_file_info>?) {
        producingEntry { since in create(req, parent, name, mode, fi, since: since) }
    }

    private func create(_ req: fuse_req_t, _ parent: fuse_ino_t, _ name: String, _ mode: mode_t,
                        _ fi: UnsafeMutablePointer<fuse_file_info>?, since: UInt64) {
        guard let fi else { return reply(req, -EINVAL) }
        guard let dir = nodes.path(UInt64(parent)) else { return reply(req, -ENOENT) }
        let path = naming(parent, name, as: Self.join(dir, name))
        var r = create(path, mode, fi)
        if r != 0 { return reply(req, r) }
        var st = stat()
        r = getattr(path, &st, fi)
        if r != 0 {
            _ = release(path, fi)
            return reply(req, r)
        }
        var e = entryParam(parent, name, st, since: since)
        if fuse_reply_create(req, &e, fi) != 0 {
            _ = release(path, fi)
            nodes.forget(UInt64(e.ino), 1)
        }
    }

    func llRead(_ req: fuse_req_t, _ node: fuse_ino_t, _ size: Int, _ offset: Int64, _ fi: UnsafeMutablePointer<fuse_file_info>?) {
        guard let fi else { return reply(req, -EBADF) }
        let buf = UnsafeMutablePointer<CChar>.allocate(capacity: max(size, 1))
        defer { buf.deallocate() }
        let n = read(nil, buf, size, offset, fi)
        if n < 0 { return reply(req, n) }
        fuse_reply_buf(req, buf, Int(n))
    }

    /// readdir from `offset` (a position the previous reply handed out: the backing directory's d_off), as many
    /// entries as fit in `size` bytes. The trash stays hidden.
    func llReaddir(_ req: fuse_req_t, _ node: fuse_ino_t, _ size: Int, _ offset: Int64, _ fi: UnsafeMutablePointer<fuse_file_info>?) {
        guard let fi, let h = handle(fi.pointee.fh) else { return reply(req, -EBADF) }
        let path = nodes.path(UInt64(node)) ?? h.path
        let (fail, _) = injected(.readdir, path)
        if let fail { return reply(req, fail) }
        let fd = dup(h.fd)
        if fd < 0 { return reply(req, -errno) }
        guard let d = fdopendir(fd) else { let e = errno; Glibc.close(fd); return reply(req, -e) }
        defer { closedir(d) }
        if offset == 0 { rewinddir(d) } else { seekdir(d, Int(offset)) }
        let atRoot = backing.rel(path) == "."
        let buf = UnsafeMutablePointer<CChar>.allocate(capacity: max(size, 1))
        defer { buf.deallocate() }
        var used = 0
        while let e = Glibc.readdir(d) {
            let full: Bool = withUnsafeBytes(of: e.pointee.d_name) { raw in
                let name = raw.bindMemory(to: CChar.self).baseAddress!
                if atRoot && strcmp(name, Backing.trashName) == 0 { return false }
                var st = stat()
                st.st_ino = e.pointee.d_ino
                st.st_mode = mode_t(e.pointee.d_type) << 12
                let need = fuse_add_direntry(req, buf + used, size - used, name, &st, off_t(e.pointee.d_off))
                if need > size - used { return true }
                used += need
                return false
            }
            if full { break }
        }
        fuse_reply_buf(req, buf, used)
    }
}
