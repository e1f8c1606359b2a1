import CFuse3
import CLifeboatSys
#if canImport(Glibc)
import Glibc
#endif

/// Attributes and lookups: getattr (with the unsynced size), chmod, chown, utimens, access, readlink,
/// statfs. Attribute changes are passed straight to the backing FS and are not part of the crash model.
extension FaultFileSystem {
    func getattr(_ path: String?, _ st: UnsafeMutablePointer<stat>, _ fi: UnsafeMutablePointer<fuse_file_info>?) -> Int32 {
        if let path, let e = check(.getattr, [path]).errnoValue { return -e }
        if fi != nil && path == nil && fi.flatMap({ handle($0.pointee.fh) }) == nil { return -EBADF }
        return attributes(path, st, fd: fi.flatMap { handle($0.pointee.fh)?.fd })
    }

    /// getattr without its rule: of descriptor `fd` when given (a handle's, or a node's anchor), else of `path`.
    func attributes(_ path: String?, _ st: UnsafeMutablePointer<stat>, fd: Int32?) -> Int32 {
        if let fd {
            if Glibc.fstat(fd, st) != 0 { return -errno }
        } else {
            guard let path else { return -EBADF }
            if backing.isHidden(path) { return -ENOENT }
            if fstatat(backing.dirFD, backing.rel(path), st, AT_SYMLINK_NOFOLLOW) != 0 { return -errno }
        }
        // Links held by the trash are not links on the mount. Reached by path, the file keeps at least that
        // name; through a descriptor alone (fstat) it may have none left: an open, unlinked file has st_nlink 0.
        let viaHandle = path == nil && fd != nil
        if !isDirectory(st.pointee) && (st.pointee.st_nlink > 1 || (viaHandle && st.pointee.st_nlink == 1)) {
            let floor = viaHandle ? 0 : 1
            let ino = UInt64(st.pointee.st_ino)
            let extra = trashLinks(ino)
            st.pointee.st_nlink -= nlink_t(min(extra, Int(st.pointee.st_nlink) - floor))
        }
        if isRegular(st.pointee), let size = pendingSize(UInt64(st.pointee.st_ino)) {
            st.pointee.st_size = off_t(size)
            st.pointee.st_blocks = max(st.pointee.st_blocks, blkcnt_t((size + 511) / 512))
        }
        return 0
    }

    func chmod(_ path: String?, _ mode: mode_t, _ fi: UnsafeMutablePointer<fuse_file_info>?) -> Int32 {
        if let fi, let h = handle(fi.pointee.fh) { return fchmod(h.fd, mode) == 0 ? 0 : -errno }
        guard let path else { return -EBADF }
        if backing.isHidden(path) { return -ENOENT }
        let (fail, _) = injected(.chmod, path)
        if let fail { return fail }
        return fchmodat(backing.dirFD, backing.rel(path), mode, 0) == 0 ? 0 : -errno
    }

    func chown(_ path: String?, _ uid: uid_t, _ gid: gid_t, _ fi: UnsafeMutablePointer<fuse_file_info>?) -> Int32 {
        if let fi, let h = handle(fi.pointee.fh) { return fchown(h.fd, uid, gid) == 0 ? 0 : -errno }
        guard let path else { return -EBADF }
        if backing.isHidden(path) { return -ENOENT }
        let (fail, _) = injected(.chown, path)
        if let fail { return fail }
        return fchownat(backing.dirFD, backing.rel(path), uid, gid, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : -errno
    }

    func utimens(_ path: String?, _ tv: UnsafePointer<timespec>?, _ fi: UnsafeMutablePointer<fuse_file_info>?) -> Int32 {
        if let fi, let h = handle(fi.pointee.fh) { return futimens(h.fd, tv) == 0 ? 0 : -errno }
        guard let path else { return -EBADF }
        if backing.isHidden(path) { return -ENOENT }
        let (fail, _) = injected(.utimens, path)
        if let fail { return fail }
        return utimensat(backing.dirFD, backing.rel(path), tv, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : -errno
    }

    func access(_ path: String, _ mask: Int32) -> Int32 {
        if backing.isHidden(path) { return -ENOENT }
        return faccessat(backing.dirFD, backing.rel(path), mask, 0) == 0 ? 0 : -errno
    }

    func readlink(_ path: String, _ buf: UnsafeMutablePointer<CChar>, _ size: Int) -> Int32 {
        if backing.isHidden(path) { return -ENOENT }
        guard size > 0 else { return -EINVAL }
        let n = readlinkat(backing.dirFD, backing.rel(path), buf, size - 1)
        if n < 0 { return -errno }
        buf[n] = 0
        return 0
    }

    func statfs(_ st: UnsafeMutablePointer<statvfs>) -> Int32 {
        fstatvfs(backing.dirFD, st) == 0 ? 0 : -errno
    }
}
