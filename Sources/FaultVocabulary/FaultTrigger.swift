/// When a matching call fires a rule. Counting starts at 1 with the first matching call. Scenario files spell it as
/// one of the keys `nth`, `after`, `probability` (none: always); its JSON (`Codable`) is the control protocol's
/// `trigger` object.
public enum FaultTrigger: Sendable, Equatable {
    /// Exactly the Kth matching call.
    case nth(Int)
    /// Every matching call after the Kth (K+1, K+2, ...).
    case after(Int)
    /// Each matching call with probability P, drawn from the rule's seeded stream.
    case probability(Double)
    /// Every matching call.
    case always

    /// The trigger of a rule whose keys say `nth`, `after` or `probability` (at most one is set; none: always).
    public init(nth: Int?, after: Int?, probability: Double?) {
        self = nth.map { .nth($0) } ?? after.map { .after($0) } ?? probability.map { .probability($0) } ?? .always
    }

    /// What is out of range, or nil.
    public var problem: String? {
        switch self {
        case .nth(let k) where k < 1: return "trigger nth needs K >= 1"
        case .after(let k) where k < 0: return "trigger after needs K >= 0"
        case .probability(let p) where !(p >= 0 && p <= 1): return "trigger probability needs 0 <= P <= 1"
        default: return nil
        }
    }
}

extension FaultTrigger: Codable {
    enum CodingKeys: String, CodingKey { case kind, n, p }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "nth": self = .nth(try c.decode(Int.self, forKey: .n))
        case "after": self = .after(try c.decode(Int.self, forKey: .n))
        case "probability": self = .probability(try c.decode(Double.self, forKey: .p))
        case "always": self = .always
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c,
                debugDescription: "unknown trigger kind \(kind) (nth, after, probability, always)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .nth(let k): try c.encode("nth", forKey: .kind); try c.encode(k, forKey: .n)
        case .after(let k): try c.encode("after", forKey: .kind); try c.encode(k, forKey: .n)
        case .probability(let p): try c.encode("probability", forKey: .kind); try c.encode(p, forKey: .p)
        case .always: try c.encode("always", forKey: .kind)
        }
    }
}
