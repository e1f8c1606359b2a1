/// Lowercase hexadecimal text of bytes (two digits a byte): the one spelling of digests and raw bytes in hashes,
/// run ids, plan ids and evidence. Written out instead of `String(format: "%02x")` per byte, which goes through
/// Foundation's formatter for every byte: object hashes are computed for every object of every copy a judge reads.
public enum Hex {
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
