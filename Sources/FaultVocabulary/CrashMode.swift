/// What survives a simulated crash. The daemon keeps all non-durable state (unsynced data ops, directory
/// entry changes since the last directory fsync) and a crash decides, deterministically from the seed and
/// the op sequence, which of those pending ops reach the backing directory.
///
/// Text (`faults.crash.mode`, `action: crash MODE`, `faultfs ctl SOCKET crash MODE`): `keep-none`, `keep-prefix N`,
/// `torn [zeros|garbage]`, `reorder`. Its `Codable` form is that text; the control protocol's `crash` request
/// spells it in the fields `mode`, `n` and `fill` (`ControlRequest.crash`).
public enum CrashMode: Sendable, Equatable {
    /// Only durable state survives.
    case keepNone
    /// The first N pending ops (data and directory-entry ops, in seq order) survive.
    case keepPrefix(Int)
    /// Pending ops before the last pending write survive; the last write is cut at a 512-byte sector
    /// boundary chosen by the seed and the rest of its range is filled with zeros or seeded garbage;
    /// pending ops after it are dropped.
    case torn(fill: TornFill)
    /// A seeded random subset of the pending ops survives (each with probability 1/2).
    case reorder

    /// The modes' names, written once: the text, the control protocol's `mode` field and their parsers use these.
    public enum Kind: String, Sendable, CaseIterable {
        case keepNone = "keep-none"
        case keepPrefix = "keep-prefix"
        case torn
        case reorder
    }

    public var kind: Kind {
        switch self {
        case .keepNone: .keepNone
        case .keepPrefix: .keepPrefix
        case .torn: .torn
        case .reorder: .reorder
        }
    }

    /// The mode's name without its argument, as on the wire (`mode`) and first in the text.
    public var name: String { kind.rawValue }

    /// The grammar, for messages and help.
    public static let syntax = "keep-none, keep-prefix N, torn [zeros|garbage] or reorder"
}

/// How the lost tail of a torn write reads after the crash.
public enum TornFill: String, Codable, Sendable, CaseIterable {
    case zeros, garbage
}

extension CrashMode {
    /// The control protocol's `crash` request spells the mode in three fields: `mode` (the name), `n` (keep-prefix)
    /// and `fill` (torn).
    public var protocolFields: (mode: String, n: Int?, fill: TornFill?) {
        switch self {
        case .keepNone, .reorder: return (name, nil, nil)
        case .keepPrefix(let n): return (name, n, nil)
        case .torn(let fill): return (name, nil, fill)
        }
    }

    /// The mode a `crash` request's fields name (no `mode`: keep-none; torn without `fill`: zeros).
    public init(protocolMode mode: String?, n: Int?, fill: TornFill?) throws(FaultTextError) {
        let name = mode ?? Kind.keepNone.rawValue
        guard let kind = Kind(rawValue: name) else { throw FaultTextError(expected: Self.syntax, text: name) }
        switch kind {
        case .keepNone: self = .keepNone
        case .keepPrefix:
            guard let n, n >= 0 else { throw FaultTextError(expected: Self.syntax, text: name, detail: "\(name) needs \"n\" >= 0") }
            self = .keepPrefix(n)
        case .torn: self = .torn(fill: fill ?? .zeros)
        case .reorder: self = .reorder
        }
    }
}
