#if canImport(Glibc)
import Glibc
#endif

/// Maps errno names used in fault rules ("EIO") to values and back, so rules and logs stay readable. One table for
/// scenario files, CLI flags and the control protocol alike.
public enum ErrnoNames {
    /// The errno values a rule may inject. Kept explicit so a typo in a rule is rejected, not silently ignored.
    public static let table: [String: Int32] = [
        "EPERM": EPERM, "ENOENT": ENOENT, "EINTR": EINTR, "EIO": EIO, "ENXIO": ENXIO, "EBADF": EBADF,
        "EAGAIN": EAGAIN, "EWOULDBLOCK": EWOULDBLOCK, "ENOMEM": ENOMEM, "EACCES": EACCES, "EBUSY": EBUSY,
        "EEXIST": EEXIST, "EXDEV": EXDEV, "ENOTDIR": ENOTDIR, "EISDIR": EISDIR, "EINVAL": EINVAL,
        "ENFILE": ENFILE, "EMFILE": EMFILE, "ETXTBSY": ETXTBSY, "EFBIG": EFBIG, "ENOSPC": ENOSPC,
        "ESPIPE": ESPIPE, "EROFS": EROFS, "EMLINK": EMLINK, "ENAMETOOLONG": ENAMETOOLONG, "ENOLCK": ENOLCK,
        "ENOSYS": ENOSYS, "ENOTEMPTY": ENOTEMPTY, "ELOOP": ELOOP, "EDQUOT": EDQUOT, "ESTALE": ESTALE,
        "EOPNOTSUPP": EOPNOTSUPP, "ETIMEDOUT": ETIMEDOUT, "ECANCELED": ECANCELED, "ENODATA": ENODATA,
        "EOVERFLOW": EOVERFLOW,
    ]

    /// The errno value for a name such as "EIO" (case-insensitive), or nil if unknown.
    public static func value(of name: String) -> Int32? { table[name.uppercased()] }

    /// Every name, sorted: the list messages and help show.
    public static var names: [String] { table.keys.sorted() }

    /// A name for an errno value (the first alphabetically when aliases share a value).
    public static func name(of value: Int32) -> String {
        table.filter { $0.value == value }.map(\.key).sorted().first ?? "E\(value)"
    }
}
