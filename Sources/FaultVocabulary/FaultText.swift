/// The fault grammar's text, in one place: the one tokenizer, and the one parser and renderer of each piece of
/// fault text (a fault action, a crash mode, a `while_held` item). Scenario files (`action:`, `faults.crash.mode`,
/// `while_held:`), `lifeboat walk --action`, `faultfs ctl SOCKET crash MODE`, `try --deep`'s walks and repros all
/// go through here, and each type's `Codable` form is its text (walk states and `deep.json` keep it). Grammar:
/// `FaultAction.Kind.syntax`, `CrashMode.syntax`, `HoldWork.syntax`.

/// The one tokenizer of fault text: words split at runs of spaces.
enum FaultWords {
    static func split(_ text: String) -> [String] { text.split(separator: " ").map(String.init) }
}

/// A fault action's text: `errno EIO`, `short-write 0`, `delay 200`, `fsync-lie`, `crash torn garbage`, `hold` ...
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
            guard let errno = Errno(rawValue: words[1]) else {
                throw failure("\(words[1]) is not an errno name FaultFS knows (\(ErrnoNames.names.joined(separator: ", ")))")
            }
            self = .errno(errno)
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
        case .errno(let name): return "\(kind.rawValue) \(name)"
        case .shortWrite(let n), .shortRead(let n), .enospcAfter(let n), .edquotAfter(let n), .delay(let n): return "\(kind.rawValue) \(n)"
        case .fsyncLie, .fsyncFailClean: return kind.rawValue
        case .crash(let mode): return "\(kind.rawValue) \(mode)"
        case .hold(let ms): return ms == Self.defaultHoldMilliseconds ? kind.rawValue : "\(kind.rawValue) \(ms)"
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

/// A crash mode's text.
extension CrashMode: CustomStringConvertible, Codable {
    /// Parses `keep-none`, `keep-prefix N` (N >= 0), `torn`, `torn zeros`, `torn garbage` or `reorder`.
    public init(text: String) throws(FaultTextError) {
        try self.init(words: FaultWords.split(text), text: text)
    }

    /// The mode from its words (the words after `crash` in an action).
    init(words: [String], text: String) throws(FaultTextError) {
        func failure(_ detail: String? = nil) -> FaultTextError { FaultTextError(expected: Self.syntax, text: text, detail: detail) }
        guard let kind = words.first.flatMap(Kind.init(rawValue:)) else { throw failure() }
        switch kind {
        case .keepNone, .reorder:
            guard words.count == 1 else { throw failure() }
            self = kind == .keepNone ? .keepNone : .reorder
        case .keepPrefix:
            guard words.count == 2, let n = Int(words[1]), n >= 0 else { throw failure("\(kind.rawValue) needs a count N >= 0") }
            self = .keepPrefix(n)
        case .torn:
            guard words.count <= 2 else { throw failure() }
            guard let fill = words.count == 1 ? .zeros : TornFill(rawValue: words[1]) else { throw failure("a torn write's tail is zeros or garbage") }
            self = .torn(fill: fill)
        }
    }

    /// The text form: `keep-prefix 3`, `torn` (zeros, the default), `torn garbage`.
    public var description: String {
        switch self {
        case .keepNone, .reorder: return name
        case .keepPrefix(let n): return "\(name) \(n)"
        case .torn(let fill): return fill == .zeros ? name : "\(name) \(fill.rawValue)"
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        do { self = try CrashMode(text: text) } catch {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "crash mode \(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// A `while_held` item's text.
extension HoldWork: CustomStringConvertible, Codable {
    public init(text: String) throws(FaultTextError) {
        let words = FaultWords.split(text)
        let failure = FaultTextError(expected: Self.syntax, text: text)
        guard words.count == 2 else { throw failure }
        switch words[0] {
        case "commit":
            guard let n = Int(words[1]), Self.commits.contains(n) else { throw failure }
            self = .commit(n)
        case "checkpoint":
            guard let mode = CheckpointMode(rawValue: words[1]) else { throw failure }
            self = .checkpoint(mode)
        default: throw failure
        }
    }

    /// `commit 4`, `checkpoint truncate`.
    public var description: String {
        switch self {
        case .commit(let n): return "commit \(n)"
        case .checkpoint(let mode): return "checkpoint \(mode.rawValue)"
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        do { self = try HoldWork(text: text) } catch {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "while_held item \(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
