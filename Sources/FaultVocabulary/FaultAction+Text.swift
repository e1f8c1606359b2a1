/// The text of a fault action, the one parser and the one renderer: scenario files (`action:`), `lifeboat walk
/// --action`, `try --deep`'s walks and repros all go through here, and `FaultAction`'s `Codable` form is this text
/// (walk states and `deep.json` keep it as they did). Grammar: `Kind.syntax`, modes in `CrashMode`.
extension FaultAction: CustomStringConvertible, Codable {
    /// The largest byte count a text action may name (1 TiB).
    public static let textBytes = 0...(1 << 40)
    /// A delay is slept inside the FUSE op: at most a minute in text, or a run could hang on it.
    public static let textDelay = 0...60_000
    /// A hold is released by the runner; at most a minute in text, for the same reason.
    public static let textHold = 1...60_000

    /// Parses `errno EIO`, `short-write 0`, `delay 200`, `fsync-lie`, `crash torn garbage`, `hold` ...
    public init(text: String) throws(FaultTextError) {
        let words = FaultWords.split(text)
        func failure(_ detail: String? = nil) -> FaultTextError {
            FaultTextError(expected: Kind.syntaxList(), text: text, detail: detail)
        }
        func number(_ range: ClosedRange<Int>, _ what: String) throws(FaultTextError) -> Int {
            guard words.count == 2, let n = Int(words[1]), range.contains(n) else {
                throw failure("\(words[0]) needs \(what) in \(range.lowerBound)...\(range.upperBound)")
            }
            return n
        }
        guard let first = words.first, let kind = Kind(rawValue: first) else { throw failure() }
        switch kind {
        case .errno:
            guard words.count == 2 else { throw failure("errno needs one NAME") }
            guard ErrnoNames.table[words[1]] != nil else {
                throw failure("\(words[1]) is not an errno name FaultFS knows (\(ErrnoNames.names.joined(separator: ", ")))")
            }
            self = .errno(words[1])
        case .shortWrite: self = .shortWrite(try number(Self.textBytes, "N"))
        case .shortRead: self = .shortRead(try number(Self.textBytes, "N"))
        case .enospcAfter: self = .enospcAfter(try number(Self.textBytes, "BYTES"))
        case .edquotAfter: self = .edquotAfter(try number(Self.textBytes, "BYTES"))
        case .delay: self = .delay(try number(Self.textDelay, "MS"))
        case .fsyncLie, .fsyncFailClean:
            guard words.count == 1 else { throw failure("\(first) takes no argument") }
            self = kind == .fsyncLie ? .fsyncLie : .fsyncFailClean
        case .crash:
            if words.count == 1 {
                self = .crash(.keepNone)
            } else {
                let mode = words.dropFirst().joined(separator: " ")
                do { self = .crash(try CrashMode(words: Array(words.dropFirst()), text: mode)) } catch {
                    throw failure("crash's MODE \(error)")
                }
            }
        case .hold:
            self = .hold(words.count == 1 ? Self.defaultHoldMilliseconds : try number(Self.textHold, "MS"))
        }
    }

    /// The text form, which `init(text:)` reads back: `crash keep-none` (the mode always said), `hold` for the
    /// default hold.
    public var description: String {
        switch self {
        case .errno(let name): return "errno \(name)"
        case .shortWrite(let n): return "short-write \(n)"
        case .shortRead(let n): return "short-read \(n)"
        case .delay(let ms): return "delay \(ms)"
        case .fsyncLie: return "fsync-lie"
        case .fsyncFailClean: return "fsync-fail-clean"
        case .enospcAfter(let n), .edquotAfter(let n): return "\(kind.rawValue) \(n)"
        case .crash(let mode): return "crash \(mode)"
        case .hold(let ms): return ms == Self.defaultHoldMilliseconds ? "hold" : "hold \(ms)"
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        do { self = try FaultAction(text: text) } catch {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "fault action \(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
