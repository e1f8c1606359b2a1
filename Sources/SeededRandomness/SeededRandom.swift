import Foundation

/// SplitMix64: a small, fast generator whose whole state is one seed, so a run replays exactly from its seed.
/// The one seeded generator of the project (the store model, the workload, FaultFS's fault triggers and crash
/// subsets all draw from it), so a seed means the same stream everywhere.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// Derives an independent stream from a seed and a label (FNV-1a of the label), e.g. a rule id or a crash
    /// number.
    public init(seed: UInt64, label: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in label.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        state = seed ^ hash
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in [0, 1).
    public mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// A UUID drawn from the generator (version 4 bits set), so generated identities replay too.
    public mutating func uuid() -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in stride(from: 0, to: 16, by: 8) {
            withUnsafeBytes(of: next()) { for (offset, byte) in $0.enumerated() { bytes[index + offset] = byte } }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// `count` bytes drawn from the generator: each draw's 8 bytes in memory order, the last draw cut short.
    /// Whole words are stored at once (generated attachments are this loop: a gigabyte of them is 128 million
    /// draws), with the same bytes a byte-by-byte copy gives.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        let total = max(0, count)
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            var offset = 0
            while offset + 8 <= total {
                raw.storeBytes(of: next(), toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            if offset < total {
                withUnsafeBytes(of: next()) { word in
                    for index in 0..<(total - offset) { raw[offset + index] = word[index] }
                }
            }
            initialized = total
        }
    }
}
