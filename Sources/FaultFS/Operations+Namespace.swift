import CFuse3
import CLifeboatSys
#if canImport(Glibc)
import Glibc
#endif

/// Directory entries: applied to the backing directory at once, recorded as not durable until a directory
/// fsync. Removals move the entry into the hidden trash so a crash can bring it back.
extension FaultFileSystem {
    func mkdir(_ path: String, _ mode: mode_t) -> Int32 {
        if backing.isHidden(path) { return -EPERM }
        let (fail, fault) = injected(.mkdir, path)
        if let fail { return fail }
        return entryLock.run(exclusive: false) {
            let path = current(path)
            let dirIno = backing.parentIno(path)
            if mkdirat(backing.dirFD, backing.rel(path), Self.masked(mode)) != 0 {
                let e = errno; logOp(.mkdir, path, result: Int64(-e), fault: fault); return -e
            }
            giveToCaller(backing.rel(path))
            let ino = UInt64(backing.lstat(backing.rel(path))?.st_ino ?? 0)
            recordEntry(.mkdir, path: path, ino: ino, dirs: [dirIno], fault: fault)
            return 0
        }
    }

    /// Moves the backing entry `relative` to a new trash name in one rename, as the namespace changes
    /// (`changingNamespace`), with `applied` right after it succeeds; unlink and rmdir keep the entry there so a
    /// crash can bring it back. Returns rename's result and the trash name.
    func moveToTrash(_ relative: String, applied: () -> Void) -> (Int32, String) {
        let trash = newTrashName()
        let res = changingNamespace {
            let res = backing.rename(relative, trash)
            if res == 0 { applied() }
            return res
        }
        return (res, trash)
    }

    /// `applied` runs right after the backing change (the node table's update: see `changingNamespace`).
    func unlink(_ path: String, applied: () -> Void = {}) -> Int32 {
        if backing.isHidden(path) { return -ENOENT }
        let (fail, fault) = injected(.unlink, path)
        if let fail { return fail }
        return entryLock.run(exclusive: false) {
            let path = current(path)
            let r = backing.rel(path)
            guard let st = backing.lstat(r) else { return -ENOENT }
            if isDirectory(st) { return -EISDIR }
            let dirIno = backing.parentIno(path)
            let (res, trash) = moveToTrash(r, applied: applied)
            if res != 0 { logOp(.unlink, path, result: Int64(res), fault: fault); return res }
            recordEntry(.unlink, path: path, ino: UInt64(st.st_ino), dirs: [dirIno], trash: trash, fault: fault)
            if st.st_nlink <= 1 { evictUnlinked(ino: UInt64(st.st_ino)) }
            return 0
        }
    }

    func rmdir(_ path: String, applied: () -> Void = {}) -> Int32 {
        if backing.isHidden(path) { return -ENOENT }
        let (fail, fault) = injected(.rmdir, path)
        if let fail { return fail }
        return entryLock.run(exclusive: false) {
            let path = current(path)
            let r = backing.rel(path)
            if r == "." { return -EBUSY }
            guard let st = backing.lstat(r) else { return -ENOENT }
            if !isDirectory(st) { return -ENOTDIR }
            if !backing.isEmptyDirectory(r) { return -ENOTEMPTY }
            let dirIno = backing.parentIno(path)
            let (res, trash) = moveToTrash(r, applied: applied)
            if res != 0 { logOp(.rmdir, path, result: Int64(res), fault: fault); return res }
            recordEntry(.rmdir, path: path, ino: UInt64(st.st_ino), dirs: [dirIno, UInt64(st.st_ino)], trash: trash, fault: fault)
            return 0
        }
    }

    func symlink(_ target: String, _ path: String) -> Int32 {
        if backing.isHidden(path) { return -EPERM }
        let (fail, fault) = injected(.symlink, path)
        if let fail { return fail }
        return entryLock.run(exclusive: false) {
            let path = current(path)
            let dirIno = backing.parentIno(path)
            if symlinkat(target, backing.dirFD, backing.rel(path)) != 0 {
                let e = errno; logOp(.symlink, path, result: Int64(-e), fault: fault); return -e
            }
            giveToCaller(backing.rel(path))
            let ino = UInt64(backing.lstat(backing.rel(path))?.st_ino ?? 0)
            recordEntry(.symlink, path: path, path2: target, ino: ino, dirs: [dirIno], fault: fault)
            return 0
        }
    }

    func link(_ from: String, _ to: String) -> Int32 {
        if backing.isHidden(from) { return -ENOENT }
        if backing.isHidden(to) { return -EPERM }
        let (fail, fault) = injected(.link, from, to)
        if let fail { return fail }
        return entryLock.run(exclusive: false) {
            let from = current(from)
            let to = current(to)
            let dirIno = backing.parentIno(to)
            if linkat(backing.dirFD, backing.rel(from), backing.dirFD, backing.rel(to), 0) != 0 {
                let e = errno; logOp(.link, to, result: Int64(-e), fault: fault); return -e
            }
            let ino = UInt64(backing.lstat(backing.rel(to))?.st_ino ?? 0)
            recordEntry(.link, path: to, path2: from, ino: ino, dirs: [dirIno], fault: fault)
            return 0
        }
    }

    /// rename(2) and renameat2 flags, each one atomic step in the backing directory, so a concurrent caller sees
    /// every name old or new (a crash can still undo it: see `NamespaceOp.undo`). A plain rename over an existing
    /// file first links the victim into the trash (so a crash can restore it), then renames over it; over an
    /// empty directory (which cannot be linked) it exchanges the two and then moves the victim, now at the
    /// source name, to the trash. `applied` runs right after the backing change (see `changingNamespace`).
    func rename(_ from: String, _ to: String, flags: UInt32, applied: () -> Void = {}) -> Int32 {
        if backing.isHidden(from) { return -ENOENT }
        if backing.isHidden(to) { return -EPERM }
        let noReplace = UInt32(LB_RENAME_NOREPLACE), exchange = UInt32(LB_RENAME_EXCHANGE)
        if flags & ~(noReplace | exchange) != 0 || flags == (noReplace | exchange) { return -EINVAL }
        let (fail, fault) = injected(.rename, from, to)
        if let fail { return fail }
        // A directory rename (or an exchange with one) moves every path under it, so it holds `entryLock` alone.
        var exclusive = false
        while true {
            let outcome: Int32? = entryLock.run(exclusive: exclusive) {
                let from = current(from), to = current(to)
                let rf = backing.rel(from), rt = backing.rel(to)
                guard let stFrom = backing.lstat(rf) else { return -ENOENT }
                let movesTree = isDirectory(stFrom) || (flags & exchange != 0 && backing.lstat(rt).map(isDirectory) == true)
                if movesTree && !exclusive { return nil }
                let dirs = [backing.parentIno(from), backing.parentIno(to)]
                let ino = UInt64(stFrom.st_ino)
                let stTo = flags == 0 ? backing.lstat(rt) : nil
                if let stTo {
                    if stTo.st_ino == stFrom.st_ino { return 0 }
                    if isDirectory(stFrom) && !isDirectory(stTo) { return -ENOTDIR }
                    if !isDirectory(stFrom) && isDirectory(stTo) { return -EISDIR }
                    if isDirectory(stTo) && !backing.isEmptyDirectory(rt) { return -ENOTEMPTY }
                }
                let (res, trash): (Int32, String?) = changingNamespace {
                    let outcome = renameInBacking(rf, rt, over: stTo, flags: flags)
                    if outcome.0 == 0 { applied() }
                    return outcome
                }
                if res != 0 {
                    logOp(.rename, from, result: Int64(res), fault: fault) { $0.path2 = to; $0.detail = "flags=\(flags)" }
                } else {
                    recordEntry(flags & exchange != 0 ? .exchange : .rename, path: from, path2: to, ino: ino, dirs: dirs,
                                trash: trash, fault: fault)
                }
                return res
            }
            if let outcome { return outcome }
            exclusive = true
        }
    }

    /// The backing side of `rename`: 0 or -errno, and the trash entry holding a replaced victim. `stTo`: what the
    /// target name held (a plain rename only), checked by the caller.
    private func renameInBacking(_ rf: String, _ rt: String, over stTo: stat?, flags: UInt32) -> (Int32, String?) {
        let noReplace = UInt32(LB_RENAME_NOREPLACE), exchange = UInt32(LB_RENAME_EXCHANGE)
        if flags & exchange != 0 { return (backing.rename(rf, rt, flags: exchange), nil) }
        guard let stTo else { return (backing.rename(rf, rt, flags: noReplace), nil) }
        let trash = newTrashName()
        if !isDirectory(stTo) {
            if linkat(backing.dirFD, rt, backing.dirFD, trash, 0) == 0 {
                let res = backing.rename(rf, rt)
                if res != 0 { _ = unlinkat(backing.dirFD, trash, 0) }
                return (res, res == 0 ? trash : nil)
            }
            // No second link possible (EMLINK, a file system without hard links): the victim moves to the
            // trash first, so for a moment the name does not exist.
            let moved = backing.rename(rt, trash)
            if moved != 0 { return (moved, nil) }
            let res = backing.rename(rf, rt, flags: noReplace)
            if res != 0 { _ = backing.rename(trash, rt, flags: noReplace) }
            return (res, res == 0 ? trash : nil)
        }
        // An empty directory: the source takes the name in one exchange, then the victim (now under the source
        // name, which the kernel still holds locked for this rename) goes to the trash.
        let swapped = backing.rename(rf, rt, flags: exchange)
        if swapped != 0 { return (swapped, nil) }
        let moved = backing.rename(rf, trash, flags: noReplace)
        if moved != 0 {
            _ = backing.rename(rf, rt, flags: exchange)
            return (moved, nil)
        }
        return (0, trash)
    }

    func opendir(_ path: String, _ fi: UnsafeMutablePointer<fuse_file_info>, node: UInt64? = nil) -> Int32 {
        if backing.isHidden(path) { return -ENOENT }
        let (fail, _) = injected(.opendir, path)
        if let fail { return fail }
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC
        let fd = node.map { openNode($0, flags: flags) } ?? lb_openat(backing.dirFD, backing.rel(path), flags, 0)
        if fd < 0 { return node == nil ? -errno : fd }
        var st = stat()
        fstat(fd, &st)
        fi.pointee.fh = addHandle(OpenFile(fd: fd, ino: UInt64(st.st_ino), epoch: epoch.load(ordering: .relaxed), path: path, isDirectory: true))
        return 0
    }

    func readdir(_ path: String?, _ buf: UnsafeMutableRawPointer?, _ filler: fuse_fill_dir_t?,
                 _ fi: UnsafeMutablePointer<fuse_file_info>?) -> Int32 {
        guard let fi, let h = handle(fi.pointee.fh), let filler else { return -EBADF }
        let (fail, _) = injected(.readdir, path ?? h.path)
        if let fail { return fail }
        let fd = dup(h.fd)
        if fd < 0 { return -errno }
        guard let d = fdopendir(fd) else { let e = errno; Glibc.close(fd); return -e }
        defer { closedir(d) }
        rewinddir(d)
        let atRoot = backing.rel(path ?? h.path) == "."
        while let e = Glibc.readdir(d) {
            let done: Bool = withUnsafeBytes(of: e.pointee.d_name) { raw in
                let name = raw.bindMemory(to: CChar.self).baseAddress!
                if atRoot && strcmp(name, Backing.trashName) == 0 { return false }
                var st = stat()
                st.st_ino = e.pointee.d_ino
                st.st_mode = mode_t(e.pointee.d_type) << 12
                return filler(buf, name, &st, 0, fuse_fill_dir_flags(rawValue: 0)) != 0
            }
            if done { break }
        }
        return 0
    }

    func releasedir(_ fi: UnsafeMutablePointer<fuse_file_info>?) -> Int32 {
        guard let fi, let h = removeHandle(fi.pointee.fh) else { return 0 }
        Glibc.close(h.fd)
        return 0
    }

    /// Directory fsync: the barrier that makes entry changes durable.
    func fsyncdir(_ path: String?, datasync: Bool, _ fi: UnsafeMutablePointer<fuse_file_info>?) -> Int32 {
        var ino: UInt64 = 0
        var fd: Int32 = -1
        var p = path ?? ""
        if let fi, let h = handle(fi.pointee.fh) {
            guard h.epoch == epoch.load(ordering: .relaxed) else { return -EIO }
            ino = h.ino; fd = h.fd; p = path ?? h.path
        } else if let path, let st = backing.lstat(backing.rel(path)) {
            ino = UInt64(st.st_ino)
        } else {
            return -EBADF
        }
        let d = check(.fsyncdir, [p])
        if let e = d.errnoValue {
            logOp(.fsyncdir, p, result: Int64(-e), fault: d.ruleID) { $0.ino = ino }
            return -e
        }
        if case .fsyncLie? = d.action {
            logOp(.fsyncdir, p, result: 0, fault: d.ruleID) { $0.ino = ino; $0.synced = []; $0.detail = "lie" }
            return 0
        }
        let synced = syncDirectory(ino: ino)
        let r: Int32 = fd >= 0 ? hostFlush(fd) : 0
        logOp(.fsyncdir, p, result: Int64(r), fault: d.ruleID) { $0.ino = ino; $0.synced = synced; $0.durable = r == 0 }
        log?.flush()
        return r
    }
}
