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
