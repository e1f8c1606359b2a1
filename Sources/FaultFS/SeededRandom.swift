/// SplitMix64: a tiny deterministic generator, so every seeded choice (probability triggers, crash subsets,
/// torn-write cut points) replays exactly from `--seed` and the op sequence.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// Derives an independent stream from a seed and a label, e.g. a rule id or a crash number.
    public init(seed: UInt64, label: String) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in label.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        state = seed ^ h
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1).
    public mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

/// FNV-1a 64-bit over bytes: the op log's content reference for write payloads (cheap, stable, not secure).
public func fnv1a64(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
    return h
}

/// Hex rendering of a 64-bit hash, fixed width.
public func hex64(_ v: UInt64) -> String {
    let s = String(v, radix: 16)
    return String(repeating: "0", count: 16 - s.count) + s
}
