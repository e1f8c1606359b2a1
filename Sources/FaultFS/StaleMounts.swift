import CLifeboatSys
#if canImport(Glibc)
import Glibc
#endif

/// Finding and clearing FUSE mounts, including dead ones whose daemon was killed ("Transport endpoint is
/// not connected", ENOTCONN): those must be lazily detached before the mountpoint can be used again.
public enum StaleMounts {
    public struct Entry: Sendable, Equatable {
        public var source: String
        public var mountpoint: String
        public var type: String
    }

    /// The current mount table (/proc/self/mounts), with octal escapes (\040 for space) decoded.
    public static func table() -> [Entry] {
        guard let f = fopen("/proc/self/mounts", "r") else { return [] }
        defer { fclose(f) }
        var entries: [Entry] = []
        var line: UnsafeMutablePointer<CChar>? = nil
        var cap = 0
        defer { free(line) }
        while getline(&line, &cap, f) > 0 {
            let fields = String(cString: line!).split(separator: " ")
            guard fields.count >= 3 else { continue }
            entries.append(Entry(source: unescape(fields[0]), mountpoint: unescape(fields[1]), type: String(fields[2])))
        }
        return entries
    }

    static func unescape(_ s: Substring) -> String {
        var out: [UInt8] = []
        var bytes = Array(s.utf8)[...]
        while let b = bytes.popFirst() {
            if b == UInt8(ascii: "\\"), bytes.count >= 3,
               let v = UInt8(String(decoding: bytes.prefix(3), as: UTF8.self), radix: 8) {
                out.append(v)
                bytes = bytes.dropFirst(3)
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// An absolute path with symlinks resolved as far as possible; works on a dead mountpoint (whose own
    /// realpath fails with ENOTCONN) by resolving its parent.
    public static func canonical(_ path: String) -> String {
        if let r = realpath(path, nil) { defer { free(r) }; return String(cString: r) }
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        let parent = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
        let name = String(trimmed[trimmed.index(after: slash)...])
        let p = canonical(parent)
        return p == "/" ? "/" + name : p + "/" + name
    }

    /// FUSE mounts at `path` or below it.
    public static func fuseMounts(under path: String) -> [Entry] {
        let root = canonical(path)
        return table().filter {
            $0.type.hasPrefix("fuse") && ($0.mountpoint == root || $0.mountpoint.hasPrefix(root == "/" ? "/" : root + "/"))
        }
    }

    /// Whether a FUSE file system is mounted exactly at `path`.
    public static func isMounted(_ path: String) -> Bool {
        let root = canonical(path)
        return table().contains { $0.type.hasPrefix("fuse") && $0.mountpoint == root }
    }

    /// Lazily unmounts every FUSE mount at or under `path`, deepest first (umount2 MNT_DETACH as root,
    /// `fusermount3 -u -z` otherwise). Returns the mountpoints it cleared.
    @discardableResult
    public static func clean(under path: String) -> [String] {
        var cleared: [String] = []
        for _ in 0..<4 {
            let mounts = fuseMounts(under: path).map(\.mountpoint).sorted { $0.count > $1.count }
            if mounts.isEmpty { break }
            for m in mounts {
                if lb_umount_detach(m) == 0 || fusermount(["-u", "-z", m]) == 0 {
                    cleared.append(m)
                }
            }
        }
        return cleared
    }
}
