import Foundation
import Scenario

/// Sizes as people write them on the command line and read them in tables: 64MB (10^6), 1GiB (2^30), 512K.
public enum ByteCount {
    /// Parses 64MB, 1.5GB, 200MiB, 4G, 4096 (bytes); nil when it is not a size. The same parser as scenarios
    /// and `lifeboat generate` (`ByteSizeText`): KB/MB/GB/TB are decimal, KiB/MiB/GiB/TiB and K/M/G binary.
    public static func parse(_ text: String) -> Int64? {
        ByteSizeText.parse(text).map(Int64.init)
    }

    /// 64MB, 1.0GB, 980kB: decimal units, as the sizes on the command line are usually given.
    public static func format(_ bytes: Double) -> String {
        let magnitude = abs(bytes)
        if magnitude >= 1e9 { return String(format: "%.2fGB", bytes / 1e9) }
        if magnitude >= 1e6 { return String(format: "%.1fMB", bytes / 1e6) }
        if magnitude >= 1e3 { return String(format: "%.0fkB", bytes / 1e3) }
        return String(format: "%.0fB", bytes)
    }

    public static func format(_ bytes: Int64) -> String { format(Double(bytes)) }

    /// The short label of a target size: the way it was most likely typed (64MB, 1GB).
    public static func label(_ bytes: Int64) -> String {
        if bytes >= 1_000_000_000, bytes % 1_000_000_000 == 0 { return "\(bytes / 1_000_000_000)GB" }
        if bytes >= 1_000_000, bytes % 1_000_000 == 0 { return "\(bytes / 1_000_000)MB" }
        return format(bytes)
    }
}
