import CFuse3
#if canImport(Glibc)
import Glibc
#endif

/// libfuse's low-level operation table. Each entry is a non-capturing C callback that finds the FaultFileSystem
/// through fuse_req_userdata, turns node ids into mount paths with the `NodeTable` (calls on an open handle get
/// no path, as the high-level table's `nullpath_ok` gave them: rules match the path the file was opened by),
/// calls the same path-based operations the high-level table calls (so the crash model sees exactly the same
/// calls), replies, and only then sends the kernel notifications the call produced (see `FuseRequestScope`).
/// Nothing here is actor-isolated: FUSE worker threads are plain pthreads. lock/flock stay unset, so the kernel
/// keeps POSIX and BSD locks locally, as with the high-level table; readdirplus too (plain readdir, lookups on
/// demand).
enum LowLevelOperations {
    static func make() -> fuse_lowlevel_ops {
        var ops = fuse_lowlevel_ops()
        ops.`init` = { _, conn in
            // Every write must reach the daemon as the program made it: no writeback cache.
            if let conn { conn.pointee.want &= ~UInt32(FUSE_CAP_WRITEBACK_CACHE) }
        }
        ops.lookup = { req, parent, name in serve(req) { fs, req in fs.llLookup(req, parent, str(name)) } }
        ops.forget = { req, ino, n in
            guard let req else { return }
            let fs = fileSystem(of: req)
            fs.requests.wrappingAdd(1, ordering: .relaxed)
            fs.nodes.forget(UInt64(ino), n)
            fuse_reply_none(req)
        }
        ops.forget_multi = { req, count, forgets in
            guard let req else { return }
            let fs = fileSystem(of: req)
            fs.requests.wrappingAdd(1, ordering: .relaxed)
            let table = fs.nodes
            if let forgets { for i in 0..<count { table.forget(UInt64(forgets[i].ino), forgets[i].nlookup) } }
            fuse_reply_none(req)
        }
        ops.getattr = { req, ino, fi in serve(req) { fs, req in fs.llGetattr(req, ino, fi) } }
        ops.setattr = { req, ino, attr, toSet, fi in serve(req) { fs, req in fs.llSetattr(req, ino, attr, toSet, fi) } }
        ops.readlink = { req, ino in serve(req) { fs, req in fs.llReadlink(req, ino) } }
        ops.mknod = { req, parent, name, mode, rdev in
            serve(req) { fs, req in fs.llMakeEntry(req, parent, str(name)) { fs.mknod($0, mode, rdev) } }
        }
        ops.mkdir = { req, parent, name, mode in
            serve(req) { fs, req in fs.llMakeEntry(req, parent, str(name)) { fs.mkdir($0, mode) } }
        }
        ops.symlink = { req, target, parent, name in
            serve(req) { fs, req in fs.llMakeEntry(req, parent, str(name)) { fs.symlink(str(target), $0) } }
        }
        ops.link = { req, ino, parent, name in serve(req) { fs, req in fs.llLink(req, ino, parent, str(name)) } }
        ops.unlink = { req, parent, name in serve(req) { fs, req in fs.llRemove(req, parent, str(name), directory: false) } }
        ops.rmdir = { req, parent, name in serve(req) { fs, req in fs.llRemove(req, parent, str(name), directory: true) } }
        ops.rename = { req, parent, name, newParent, newName, flags in
            serve(req) { fs, req in fs.llRename(req, parent, str(name), newParent, str(newName), flags) }
        }
        ops.open = { req, ino, fi in serve(req) { fs, req in fs.llOpen(req, ino, fi, directory: false) } }
        ops.opendir = { req, ino, fi in serve(req) { fs, req in fs.llOpen(req, ino, fi, directory: true) } }
        ops.create = { req, parent, name, mode, fi in serve(req) { fs, req in fs.llCreate(req, parent, str(name), mode, fi) } }
        ops.read = { req, ino, size, off, fi in serve(req) { fs, req in fs.llRead(req, ino, size, Int64(off), fi) } }
        ops.write = { req, ino, buf, size, off, fi in
            serve(req) { fs, req in
                guard let buf, let fi else { return reply(req, -EINVAL) }
                let n = fs.write(nil, buf, size, Int64(off), fi)
                if n > 0 { fs.notifySiblings(ino) }
                if n < 0 { reply(req, n) } else { fuse_reply_write(req, Int(n)) }
            }
        }
        ops.flush = { req, _, fi in serve(req) { fs, req in reply(req, fs.flush(fi)) } }
        ops.release = { req, ino, fi in serve(req) { fs, req in reply(req, fs.release(nil, fi)) } }
        ops.releasedir = { req, _, fi in serve(req) { fs, req in reply(req, fs.releasedir(fi)) } }
        ops.fsync = { req, ino, datasync, fi in
            serve(req) { fs, req in
                guard let fi else { return reply(req, -EBADF) }
                reply(req, fs.fsync(nil, datasync: datasync != 0, fi))
            }
        }
        ops.fsyncdir = { req, ino, datasync, fi in
            serve(req) { fs, req in reply(req, fs.fsyncdir(nil, datasync: datasync != 0, fi)) }
        }
        ops.readdir = { req, ino, size, off, fi in serve(req) { fs, req in fs.llReaddir(req, ino, size, Int64(off), fi) } }
        ops.statfs = { req, _ in
            serve(req) { fs, req in
                var st = statvfs()
                let r = fs.statfs(&st)
                if r != 0 { reply(req, r) } else { fuse_reply_statfs(req, &st) }
            }
        }
        ops.access = { req, ino, mask in
            serve(req) { fs, req in
                guard let path = fs.nodes.path(UInt64(ino)) else { return reply(req, -ENOENT) }
                reply(req, fs.access(path, mask))
            }
        }
        ops.setxattr = { req, ino, name, value, size, flags in
            serve(req) { fs, req in
                guard let path = fs.nodes.path(UInt64(ino)) else { return reply(req, -ENOENT) }
                let r = fs.setxattr(path, str(name), value, size, flags)
                if r == 0 { fs.notifySiblings(ino) }
                reply(req, r)
            }
        }
        ops.removexattr = { req, ino, name in
            serve(req) { fs, req in
                guard let path = fs.nodes.path(UInt64(ino)) else { return reply(req, -ENOENT) }
                let r = fs.removexattr(path, str(name))
                if r == 0 { fs.notifySiblings(ino) }
                reply(req, r)
            }
        }
        ops.getxattr = { req, ino, name, size in
            serve(req) { fs, req in
                guard let path = fs.nodes.path(UInt64(ino)) else { return reply(req, -ENOENT) }
                replyXattr(req, size) { fs.getxattr(path, str(name), $0, $1) }
            }
        }
        ops.listxattr = { req, ino, size in
            serve(req) { fs, req in
                guard let path = fs.nodes.path(UInt64(ino)) else { return reply(req, -ENOENT) }
                replyXattr(req, size) { fs.listxattr(path, $0, $1) }
            }
        }
        ops.fallocate = { req, ino, mode, off, len, fi in
            serve(req) { fs, req in
                let r = fs.fallocate(nil, mode, Int64(off), Int64(len), fi)
                if r == 0 { fs.notifySiblings(ino) }
                reply(req, r)
            }
        }
        ops.copy_file_range = { req, inoIn, offIn, fiIn, inoOut, offOut, fiOut, len, flags in
            serve(req) { fs, req in
                let n = fs.copyFileRange(nil, fiIn, Int64(offIn), nil, fiOut,
                                         Int64(offOut), len, flags)
                if n > 0 { fs.notifySiblings(inoOut) }
                if n < 0 { reply(req, Int32(n)) } else { fuse_reply_write(req, n) }
            }
        }
        ops.lseek = { req, ino, off, whence, fi in
            serve(req) { fs, req in
                let r = fs.lseek(nil, Int64(off), whence, fi)
                if r < 0 { reply(req, Int32(r)) } else { fuse_reply_lseek(req, off_t(r)) }
            }
        }
        return ops
    }
}

/// Serves one request: `body` replies; the notifications it queued go out after that.
@inline(__always)
private func serve(_ req: fuse_req_t?, _ body: (FaultFileSystem, fuse_req_t) -> Void) {
    guard let req else { return }
    let fs = fileSystem(of: req)
    fs.requests.wrappingAdd(1, ordering: .relaxed)
    let notices = FuseRequestScope.serving(req) { scope -> [KernelNotice] in
        body(fs, req)
        return scope.notices
    }
    if !notices.isEmpty { fs.sendNotices(notices) }
}

@inline(__always)
private func fileSystem(of req: fuse_req_t) -> FaultFileSystem {
    Unmanaged<FaultFileSystem>.fromOpaque(fuse_req_userdata(req)!).takeUnretainedValue()
}

@inline(__always)
private func str(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }

/// Replies with an error (`result` is 0 or -errno; 0 is a success without data).
@inline(__always)
func reply(_ req: fuse_req_t, _ result: Int32) { _ = fuse_reply_err(req, -result) }

/// getxattr/listxattr: with size 0 the length the value needs, else the value.
private func replyXattr(_ req: fuse_req_t, _ size: Int, _ call: (UnsafeMutablePointer<CChar>?, Int) -> Int32) {
    if size == 0 {
        let n = call(nil, 0)
        if n < 0 { reply(req, n) } else { fuse_reply_xattr(req, Int(n)) }
        return
    }
    let buf = UnsafeMutablePointer<CChar>.allocate(capacity: size)
    defer { buf.deallocate() }
    let n = call(buf, size)
    if n < 0 { reply(req, n) } else { fuse_reply_buf(req, buf, Int(n)) }
}
