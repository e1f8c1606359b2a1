import CFuse3
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What makes the mount behave like a native file system for the programs under test: the caller's umask
/// and ownership on new entries, mknod (FIFOs, sockets, devices), extended attributes, timestamps on writes
/// and truncates, S_ISUID/S_ISGID cleared on writes by others, and the link count without the trash's links.
/// The daemon runs with umask 0 (see FaultFSDaemon), so only the caller's umask applies.
extension FaultFileSystem {
    /// The calling process's uid, gid and umask (from the FUSE request).
    struct Caller {
        let uid: uid_t
        let gid: gid_t
        let umask: mode_t
        /// The calling thread (0 outside a request).
        var pid: pid_t = 0

        static var current: Caller {
            guard let c = currentFuseContext() else { return Caller(uid: geteuid(), gid: getegid(), umask: 0) }
            return Caller(uid: c.uid, gid: c.gid, umask: c.umask, pid: c.pid)
        }

        /// CAP_FSETID (capability 4), which lets a writer keep set-ID bits: the calling thread's effective
        /// capabilities from /proc/PID/status. Read only when a content change meets a set-ID bit (rare); when
        /// they cannot be read, root is taken to hold it and anyone else not (the daemon's earlier rule).
        var mayKeepSetID: Bool {
            guard pid > 0, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
                  let caps = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return uid == 0 }
            return caps & (1 << 4) != 0
        }

        /// Whether the calling process has `group` as its group or a supplementary group (read by libfuse from
        /// /proc; false when they cannot be read, which only errs towards clearing set-group-ID).
        func isMember(of group: gid_t) -> Bool {
            if gid == group { return true }
            var groups = [gid_t](repeating: 0, count: 64)
            let n = groups.withUnsafeMutableBufferPointer { currentFuseGroups($0) }
            return n > 0 && groups.prefix(Int(min(n, 64))).contains(group)
        }
    }

    /// `mode` with the caller's umask applied (idempotent when the kernel applied it already).
    static func masked(_ mode: mode_t) -> mode_t { mode & ~(Caller.current.umask & 0o777) }

    /// Gives a new entry (relative path) to the caller, as the kernel would have created it. Only a root daemon
    /// can; the group stays the directory's when it is set-group-ID (BSD group semantics, as native).
    func giveToCaller(_ rel: String) {
        guard geteuid() == 0 else { return }
        let c = Caller.current
        if c.uid == 0 && c.gid == 0 { return }
        let parentRel = backing.rel(backing.parent("/" + rel))
        let setgidDir = (backing.lstat(parentRel)?.st_mode ?? 0) & S_ISGID != 0
        _ = fchownat(backing.dirFD, rel, c.uid, setgidDir ? gid_t.max : c.gid, AT_SYMLINK_NOFOLLOW)
    }

    func mknod(_ path: String, _ mode: mode_t, _ rdev: dev_t) -> Int32 {
        if backing.isHidden(path) { return -EPERM }
        let (fail, fault) = injected(.create, path)
        if let fail { return fail }
        return entryLock.run(exclusive: false) {
            let path = current(path)
            let r = backing.rel(path)
            let dirIno = backing.parentIno(path)
            if mknodat(backing.dirFD, r, Self.masked(mode), rdev) != 0 {
                let e = errno; logOp(.mknod, path, result: Int64(-e), fault: fault); return -e
            }
            giveToCaller(r)
            let ino = UInt64(backing.lstat(r)?.st_ino ?? 0)
            recordEntry(.create, path: path, ino: ino, dirs: [dirIno], fault: fault)
            return 0
        }
    }

    /// After a data change by the caller: mtime/ctime now (the bytes reach the backing file only at fsync,
    /// but the times are the change's), and S_ISUID/S_ISGID dropped as the kernel drops them for a writer
    /// without CAP_FSETID, owner or not, root or not (fs/attr.c, setattr_should_drop_suidgid; the kernel leaves
    /// it to a FUSE file system on direct I/O, and libfuse 3.14 does not pass FUSE_WRITE_KILL_SUIDGID).
    func touchAfterWrite(fd: Int32, clearPrivileges: Bool) {
        // atime untouched (UTIME_OMIT), mtime now (UTIME_NOW); ctime follows.
        let now = [timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2), timespec(tv_sec: 0, tv_nsec: (1 << 30) - 1)]
        _ = futimens(fd, now)
        guard clearPrivileges else { return }
        var st = stat()
        guard fstat(fd, &st) == 0, isRegular(st), st.st_mode & (S_ISUID | S_ISGID) != 0 else { return }
        let caller = Caller.current
        // As the kernel's setattr_should_drop_sgid: set-group-ID goes when the group may execute, or when the
        // caller is not in the file's group (Linux 6.x; group-execute-less set-group-ID otherwise marks
        // mandatory locking and stays).
        let dropSGID = st.st_mode & S_ISGID != 0 && (st.st_mode & S_IXGRP != 0 || !caller.isMember(of: st.st_gid))
        if (st.st_mode & S_ISUID != 0 || dropSGID) && !caller.mayKeepSetID {
            _ = fchmod(fd, st.st_mode & 0o7777 & ~(S_ISUID | (dropSGID ? S_ISGID : 0)))
            // The kernel drops only size and times after a write; the mode it caches changed too.
            invalidateKernelCaches([], inos: [UInt64(st.st_ino)])
        }
    }

    /// Links of `ino` held only by the trash (unlinks and replacing renames not yet durable), which the mount
    /// must not count.
    func trashLinks(_ ino: UInt64) -> Int { state.withLock { $0.trashByIno[ino]?.count ?? 0 } }

    // MARK: Extended attributes (passed through by path to the backing file system)

    func backingPath(_ path: String) -> String { backing.root + "/" + backing.rel(path) }

    func setxattr(_ path: String, _ name: String, _ value: UnsafePointer<CChar>?, _ size: Int, _ flags: Int32) -> Int32 {
        if backing.isHidden(path) { return -ENOENT }
        return lsetxattr(backingPath(path), name, value, size, flags) == 0 ? 0 : -errno
    }

    func getxattr(_ path: String, _ name: String, _ value: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int32 {
        if backing.isHidden(path) { return -ENOENT }
        let n = lgetxattr(backingPath(path), name, value, size)
        return n < 0 ? -errno : Int32(n)
    }

    func listxattr(_ path: String, _ list: UnsafeMutablePointer<CChar>?, _ size: Int) -> Int32 {
        if backing.isHidden(path) { return -ENOENT }
        let n = llistxattr(backingPath(path), list, size)
        return n < 0 ? -errno : Int32(n)
    }

    func removexattr(_ path: String, _ name: String) -> Int32 {
        if backing.isHidden(path) { return -ENOENT }
        return lremovexattr(backingPath(path), name) == 0 ? 0 : -errno
    }
}
