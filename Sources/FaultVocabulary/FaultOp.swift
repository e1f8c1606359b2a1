/// A file system operation a fault rule can target. `any` matches every operation. The raw values are the names
/// scenario files (`faults.rules[].ops`), `lifeboat walk --ops` and the control protocol use.
public enum FaultOp: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    case any, open, create, read, write, flush, release, fsync, fsyncdir, truncate, fallocate
    case rename, unlink, rmdir, mkdir, link, symlink, readlink, getattr, readdir, opendir
    case chmod, chown, utimens, statfs, access, lseek
    case copyFileRange = "copy_file_range"

    /// Every op name, in declaration order: the list error messages and help texts show.
    public static var names: [String] { allCases.map(\.rawValue) }

    /// Its name (`copy_file_range`), so that a message or a folder name built from an op reads as a scenario file does.
    public var description: String { rawValue }
}

extension Array where Element == FaultOp {
    /// The ops as a scenario file and the run's journal write them: `write,fsync`.
    public var text: String { map(\.rawValue).joined(separator: ",") }
}
