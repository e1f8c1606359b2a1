import Foundation

/// Which other process has a file open, read from `/proc/<pid>/fd` (Linux): a replace must not rename a new
/// file over a database another process (an app extension, a widget) holds, since that process would go on
/// with the old, unlinked inode. SQLite's locks cannot tell: a connection between transactions holds none.
public enum OpenFiles {
    /// The pid of another process that has one of `files` open, or nil (also when /proc cannot be read).
    public static func holder(of files: [URL]) -> Int32? {
        var wanted: Set<[UInt64]> = []
        for file in files {
            var info = stat()
            if stat(file.path, &info) == 0 { wanted.insert([UInt64(info.st_dev), UInt64(info.st_ino)]) }
        }
        guard !wanted.isEmpty, let pids = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        let me = getpid()
        for name in pids {
            guard let pid = Int32(name), pid != me else { continue }
            let folder = "/proc/\(name)/fd"
            guard let fds = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for fd in fds {
                var info = stat()
                if stat("\(folder)/\(fd)", &info) == 0, wanted.contains([UInt64(info.st_dev), UInt64(info.st_ino)]) { return pid }
            }
        }
        return nil
    }
}
