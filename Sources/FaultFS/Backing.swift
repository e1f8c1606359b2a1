import CLifeboatSys
#if canImport(Glibc)
import Glibc
#endif

/// The backing directory: an open descriptor every operation resolves paths against with *at() calls,
/// plus the hidden trash directory that holds unlinked entries until their unlink is durable.
struct Backing: Sendable {
    /// Name of the trash directory at the backing root; hidden from the mount.
    static let trashName = ".faultfs-trash"

    let root: String
    let dirFD: Int32

    init(root: String) throws {
        self.root = root
        dirFD = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD < 0 { throw FaultFSError.io("cannot open backing directory \(root): \(String(cString: strerror(errno)))") }
        // Entries left in the trash by an earlier daemon that died are treated as deleted.
        if fstatatOK(Backing.trashName) { removeTree(Backing.trashName) }
        if mkdirat(dirFD, Backing.trashName, 0o700) != 0 && errno != EEXIST {
            throw FaultFSError.io("cannot create \(root)/\(Backing.trashName): \(String(cString: strerror(errno)))")
        }
    }

    /// Mount path ("/a/b") to a path relative to the backing root ("a/b"; "." for the root).
    @inline(__always)
    func rel(_ path: String) -> String {
        let r = path.drop(while: { $0 == "/" })
        return r.isEmpty ? "." : String(r)
    }

    /// True for the trash directory and anything inside it: such paths do not exist on the mount.
    func isHidden(_ path: String) -> Bool {
        let r = rel(path)
        return r == Backing.trashName || r.hasPrefix(Backing.trashName + "/")
    }

    /// Mount path of the parent directory.
    func parent(_ path: String) -> String {
        guard let i = path.lastIndex(of: "/") else { return "/" }
        let p = String(path[..<i])
        return p.isEmpty ? "/" : p
    }

    /// lstat relative to the backing root.
    func lstat(_ rel: String) -> stat? {
        var st = stat()
        return fstatat(dirFD, rel, &st, AT_SYMLINK_NOFOLLOW) == 0 ? st : nil
    }

    func fstatatOK(_ rel: String) -> Bool { lstat(rel) != nil }

    /// Inode of the directory containing mount path `path`.
    func parentIno(_ path: String) -> UInt64 { UInt64(lstat(rel(parent(path)))?.st_ino ?? 0) }

    /// Deletes a file or a whole directory tree (relative to the backing root). Best effort.
    func removeTree(_ rel: String) {
        guard let st = lstat(rel) else { return }
        if (st.st_mode & S_IFMT) != S_IFDIR {
            _ = unlinkat(dirFD, rel, 0)
            return
        }
        let fd = openat(dirFD, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0, let d = fdopendir(fd) {
            var names: [String] = []
            while let e = readdir(d) {
                let name = withUnsafeBytes(of: e.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(d)
            for n in names { removeTree(rel + "/" + n) }
        } else if fd >= 0 {
            close(fd)
        }
        _ = unlinkat(dirFD, rel, AT_REMOVEDIR)
    }

    /// Whether a directory (relative path) has no entries besides "." and "..".
    func isEmptyDirectory(_ rel: String) -> Bool {
        let fd = openat(dirFD, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0, let d = fdopendir(fd) else { if fd >= 0 { close(fd) }; return false }
        defer { closedir(d) }
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { return false }
        }
        return true
    }

    /// renameat2 within the backing root. Returns 0 or -errno.
    func rename(_ from: String, _ to: String, flags: UInt32 = 0) -> Int32 {
        if flags == 0 { return renameat(dirFD, from, dirFD, to) == 0 ? 0 : -errno }
        return lb_renameat2(dirFD, from, dirFD, to, flags) == 0 ? 0 : -errno
    }
}

/// The file type bits of a stat.
@inline(__always) func isDirectory(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFDIR }
@inline(__always) func isRegular(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFREG }
