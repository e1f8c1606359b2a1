#if canImport(Glibc)
import Glibc
#endif

/// An errno a fault rule may inject, by name: the one table of them. Scenario files, CLI flags and the control
/// protocol name them ("EIO"), and each is parsed once into this type, so code compares `.EIO`, not text, and a
/// typo in a rule is rejected where it is read, not silently ignored. The raw value is the name (the text
/// `errno EIO` and the protocol's `{"kind":"errno","errno":"EIO"}` carry it); `value` the errno number.
public enum Errno: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case EPERM, ENOENT, EINTR, EIO, ENXIO, EBADF, EAGAIN, EWOULDBLOCK, ENOMEM, EACCES, EBUSY, EEXIST, EXDEV, ENOTDIR
    case EISDIR, EINVAL, ENFILE, EMFILE, ETXTBSY, EFBIG, ENOSPC, ESPIPE, EROFS, EMLINK, ENAMETOOLONG, ENOLCK, ENOSYS
    case ENOTEMPTY, ELOOP, EDQUOT, ESTALE, EOPNOTSUPP, ETIMEDOUT, ECANCELED, ENODATA, EOVERFLOW

    /// The errno value (`Glibc.` because each case shadows the C constant of its name here).
    public var value: Int32 {
        switch self {
        case .EPERM: Glibc.EPERM
        case .ENOENT: Glibc.ENOENT
        case .EINTR: Glibc.EINTR
        case .EIO: Glibc.EIO
        case .ENXIO: Glibc.ENXIO
        case .EBADF: Glibc.EBADF
        case .EAGAIN: Glibc.EAGAIN
        case .EWOULDBLOCK: Glibc.EWOULDBLOCK
        case .ENOMEM: Glibc.ENOMEM
        case .EACCES: Glibc.EACCES
        case .EBUSY: Glibc.EBUSY
        case .EEXIST: Glibc.EEXIST
        case .EXDEV: Glibc.EXDEV
        case .ENOTDIR: Glibc.ENOTDIR
        case .EISDIR: Glibc.EISDIR
        case .EINVAL: Glibc.EINVAL
        case .ENFILE: Glibc.ENFILE
        case .EMFILE: Glibc.EMFILE
        case .ETXTBSY: Glibc.ETXTBSY
        case .EFBIG: Glibc.EFBIG
        case .ENOSPC: Glibc.ENOSPC
        case .ESPIPE: Glibc.ESPIPE
        case .EROFS: Glibc.EROFS
        case .EMLINK: Glibc.EMLINK
        case .ENAMETOOLONG: Glibc.ENAMETOOLONG
        case .ENOLCK: Glibc.ENOLCK
        case .ENOSYS: Glibc.ENOSYS
        case .ENOTEMPTY: Glibc.ENOTEMPTY
        case .ELOOP: Glibc.ELOOP
        case .EDQUOT: Glibc.EDQUOT
        case .ESTALE: Glibc.ESTALE
        case .EOPNOTSUPP: Glibc.EOPNOTSUPP
        case .ETIMEDOUT: Glibc.ETIMEDOUT
        case .ECANCELED: Glibc.ECANCELED
        case .ENODATA: Glibc.ENODATA
        case .EOVERFLOW: Glibc.EOVERFLOW
        }
    }

    /// The name, e.g. "EIO".
    public var description: String { rawValue }
}

/// Names of errno values, for messages, logs and help.
public enum ErrnoNames {
    /// Every name a rule may inject, sorted: the list messages and help show.
    public static var names: [String] { Errno.allCases.map(\.rawValue).sorted() }

    /// A name for an errno value (the first alphabetically when aliases share a value, e.g. EAGAIN for
    /// EWOULDBLOCK), or "E<number>" for one outside the table.
    public static func name(of value: Int32) -> String {
        Errno.allCases.filter { $0.value == value }.map(\.rawValue).sorted().first ?? "E\(value)"
    }
}
