/// SplitMix64: a small, fast generator whose whole state is one seed, so a run replays exactly from its seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

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

    /// `count` bytes drawn from the generator.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        result.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < count {
                let word = next()
                withUnsafeBytes(of: word) { wordBytes in
                    let n = min(8, count - offset)
                    for i in 0..<n { buffer[offset + i] = wordBytes[i] }
                }
                offset += 8
            }
        }
        return result
    }
}

import Foundation
