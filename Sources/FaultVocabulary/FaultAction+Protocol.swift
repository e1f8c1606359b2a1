/// The FaultFS control protocol's JSON for an action (the `action` of an `arm` request's rule and of `rules`
/// replies): `{"kind":"errno","errno":"EIO"}`, `{"kind":"short-write","bytes":N}`, `{"kind":"delay","ms":N}`,
/// `{"kind":"crash","mode":"torn garbage"}` (mode left out for keep-none), `{"kind":"hold","ms":N}`. `FaultRule`
/// encodes its action through this; `FaultAction`'s own `Codable` form is the text.
public struct FaultActionJSON: Codable, Sendable, Equatable {
    public var action: FaultAction

    public init(_ action: FaultAction) { self.action = action }

    enum CodingKeys: String, CodingKey { case kind, errno, bytes, ms, mode }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let name = try c.decode(String.self, forKey: .kind)
        guard let kind = FaultAction.Kind(rawValue: name) else {
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription:
                "unknown action kind \(name) (\(FaultAction.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        switch kind {
        case .errno:
            // Any case, as the daemon has always taken it ("eio"); the reply's rules name it in capitals.
            let name = try c.decode(String.self, forKey: .errno)
            guard let errno = Errno(rawValue: name.uppercased()) else {
                throw DecodingError.dataCorruptedError(forKey: .errno, in: c, debugDescription:
                    "unknown errno name \(name) (\(ErrnoNames.names.joined(separator: ", ")))")
            }
            action = .errno(errno)
        case .shortWrite: action = .shortWrite(try c.decode(Int.self, forKey: .bytes))
        case .shortRead: action = .shortRead(try c.decode(Int.self, forKey: .bytes))
        case .delay: action = .delay(try c.decode(Int.self, forKey: .ms))
        case .fsyncLie: action = .fsyncLie
        case .fsyncFailClean: action = .fsyncFailClean
        case .enospcAfter: action = .enospcAfter(try c.decode(Int.self, forKey: .bytes))
        case .edquotAfter: action = .edquotAfter(try c.decode(Int.self, forKey: .bytes))
        case .crash: action = .crash(try c.decodeIfPresent(CrashMode.self, forKey: .mode) ?? .keepNone)
        case .hold: action = .hold(try c.decode(Int.self, forKey: .ms))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(action.kind.rawValue, forKey: .kind)
        switch action {
        case .errno(let e): try c.encode(e, forKey: .errno)
        case .shortWrite(let n), .shortRead(let n), .enospcAfter(let n), .edquotAfter(let n): try c.encode(n, forKey: .bytes)
        case .delay(let ms), .hold(let ms): try c.encode(ms, forKey: .ms)
        case .fsyncLie, .fsyncFailClean: break
        case .crash(let mode): if mode != .keepNone { try c.encode(mode, forKey: .mode) }
        }
    }
}
