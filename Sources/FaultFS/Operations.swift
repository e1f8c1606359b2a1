import CFuse3
#if canImport(Glibc)
import Glibc
#endif

/// The libfuse high-level operation table. Every entry is a non-capturing @convention(c) closure that finds
/// the FaultFileSystem through fuse_get_context()->private_data, so nothing here is actor-isolated (FUSE
/// worker threads are plain pthreads). lock/flock stay unset: the kernel then keeps POSIX and BSD locks
/// locally, which is correct across processes on one host.
enum FuseOperations {
    static func make() -> fuse_operations {
        var ops = fuse_operations()
        ops.`init` = { _, cfg in
            if let cfg {
                // Inode numbers from the backing FS; no attribute/entry caching so the view stays truthful
                // after a crash; direct I/O is chosen per file at open (see chooseCaching).
                cfg.pointee.use_ino = 1
                cfg.pointee.readdir_ino = 1
                cfg.pointee.entry_timeout = 0
                cfg.pointee.attr_timeout = 0
                cfg.pointee.negative_timeout = 0
                cfg.pointee.direct_io = 0
                cfg.pointee.kernel_cache = 0
                cfg.pointee.auto_cache = 0
                // Unlink really unlinks (no .fuse_hidden renames); calls on open files then come without a
                // path, which the handles cover.
                cfg.pointee.hard_remove = 1
                cfg.pointee.nullpath_ok = 1
            }
            return cfuse_private_data()
        }
        ops.getattr = { path, st, fi in
            guard let st else { return -EINVAL }
            return fs().getattr(str(path), st, fi)
        }
        ops.readlink = { path, buf, size in
            guard let path, let buf else { return -EINVAL }
            return fs().readlink(String(cString: path), buf, size)
        }
        ops.mkdir = { path, mode in
            guard let path else { return -EINVAL }
            return fs().mkdir(String(cString: path), mode)
        }
        ops.unlink = { path in
            guard let path else { return -EINVAL }
            return fs().unlink(String(cString: path))
        }
        ops.rmdir = { path in
            guard let path else { return -EINVAL }
            return fs().rmdir(String(cString: path))
        }
        ops.symlink = { target, path in
            guard let target, let path else { return -EINVAL }
            return fs().symlink(String(cString: target), String(cString: path))
        }
        ops.rename = { from, to, flags in
            guard let from, let to else { return -EINVAL }
            return fs().rename(String(cString: from), String(cString: to), flags: flags)
        }
        ops.link = { from, to in
            guard let from, let to else { return -EINVAL }
            return fs().link(String(cString: from), String(cString: to))
        }
        ops.chmod = { path, mode, fi in fs().chmod(str(path), mode, fi) }
        ops.chown = { path, uid, gid, fi in fs().chown(str(path), uid, gid, fi) }
        ops.truncate = { path, size, fi in fs().truncate(str(path), Int64(size), fi) }
        ops.open = { path, fi in
            guard let path, let fi else { return -EINVAL }
            return fs().open(String(cString: path), fi)
        }
        ops.read = { path, buf, size, off, fi in
            guard let buf, let fi else { return -EINVAL }
            return fs().read(str(path), buf, size, Int64(off), fi)
        }
        ops.write = { path, buf, size, off, fi in
            guard let buf, let fi else { return -EINVAL }
            return fs().write(str(path), buf, size, Int64(off), fi)
        }
        ops.statfs = { _, st in
            guard let st else { return -EINVAL }
            return fs().statfs(st)
        }
        ops.flush = { _, fi in fs().flush(fi) }
        ops.release = { path, fi in fs().release(str(path), fi) }
        ops.fsync = { path, datasync, fi in
            guard let fi else { return -EINVAL }
            return fs().fsync(str(path), datasync: datasync != 0, fi)
        }
        ops.opendir = { path, fi in
            guard let path, let fi else { return -EINVAL }
            return fs().opendir(String(cString: path), fi)
        }
        ops.readdir = { path, buf, filler, _, fi, _ in fs().readdir(str(path), buf, filler, fi) }
        ops.releasedir = { _, fi in fs().releasedir(fi) }
        ops.fsyncdir = { path, datasync, fi in fs().fsyncdir(str(path), datasync: datasync != 0, fi) }
        ops.access = { path, mask in
            guard let path else { return -EINVAL }
            return fs().access(String(cString: path), mask)
        }
        ops.create = { path, mode, fi in
            guard let path, let fi else { return -EINVAL }
            return fs().create(String(cString: path), mode, fi)
        }
        ops.utimens = { path, tv, fi in fs().utimens(str(path), tv, fi) }
        ops.fallocate = { path, mode, off, len, fi in fs().fallocate(str(path), mode, Int64(off), Int64(len), fi) }
        ops.copy_file_range = { pin, fin, oin, pout, fout, oout, size, flags in
            fs().copyFileRange(str(pin), fin, Int64(oin), str(pout), fout, Int64(oout), size, flags)
        }
        ops.lseek = { path, off, whence, fi in off_t(fs().lseek(str(path), Int64(off), whence, fi)) }
        ops.mknod = { path, mode, rdev in
            guard let path else { return -EINVAL }
            return fs().mknod(String(cString: path), mode, rdev)
        }
        ops.setxattr = { path, name, value, size, flags in
            guard let path, let name else { return -EINVAL }
            return fs().setxattr(String(cString: path), String(cString: name), value, size, flags)
        }
        ops.getxattr = { path, name, value, size in
            guard let path, let name else { return -EINVAL }
            return fs().getxattr(String(cString: path), String(cString: name), value, size)
        }
        ops.listxattr = { path, list, size in
            guard let path else { return -EINVAL }
            return fs().listxattr(String(cString: path), list, size)
        }
        ops.removexattr = { path, name in
            guard let path, let name else { return -EINVAL }
            return fs().removexattr(String(cString: path), String(cString: name))
        }
        return ops
    }
}

/// The file system of the running mount (the private_data passed to fuse_new).
@inline(__always)
private func fs() -> FaultFileSystem {
    let fs = Unmanaged<FaultFileSystem>.fromOpaque(cfuse_private_data()!).takeUnretainedValue()
    // Every callback calls this once: one request (a lookup counts as the getattr libfuse makes for it; forgets
    // are not seen).
    fs.requests.wrappingAdd(1, ordering: .relaxed)
    return fs
}

@inline(__always)
private func str(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
