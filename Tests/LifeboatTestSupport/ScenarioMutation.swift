import Foundation
import SeededRandomness

/// Mutants of a scenario file for the "no input crashes Lifeboat" properties: a value replaced by an extreme
/// number, a wrong type or garbage, a line deleted, duplicated or replaced by garbage, the file cut short.
/// Deterministic in its seed, so a failing mutant is reproduced from the seed the property reports.
public enum ScenarioMutation {
    /// Values that broke parsers before, or sit at the edge of a type: sizes beyond Int.max, infinities,
    /// NaN, YAML 1.1 base-60 integers (whose conversion overflowed), hex, empty collections, wrong types.
    public static let extremes = [
        "1e30", "-1", "0", "9223372036854775807", "-9223372036854775808", "18446744073709551616", "9223372036854775808",
        ".inf", "-.inf", ".nan", "1e-300", "1:1:1:1:1:1:1:1:1:1:1:1:1", "0x7fffffffffffffff", "0b1111", "0o777",
        "[]", "{}", "~", "\"\"", "true", "[1, 2, 3]", "{a: b}", "9e18GB", "1e30KiB", "-5MB", "2147483648", "4294967296",
        "!!float 1e400", "!!binary AAAA", "\"\\u0000\"", "'%s%n%x'", "*undefined_alias", "&anchor x", "1_000_000_000_000_000_000",
    ]

    static let garbage = ["- [", "  : :", "\t\tkey: value", "{{{{", "]]]", "key: [unclosed", "---", "...", "? complex", "!!python/object:os.system",
                          "<<: *nothing", "%YAML 9.9", "\u{0}\u{1}\u{2}", String(repeating: "x", count: 5000), "writers: {count: 1e30}"]

    /// One mutant of `text` drawn from `seed`.
    public static func mutate(_ text: String, seed: UInt64) -> String {
        var random = SeededRandom(seed: seed)
        var lines = text.components(separatedBy: "\n")
        guard !lines.isEmpty else { return text }
        func pick<T>(_ list: [T]) -> T { list[Int(random.next() % UInt64(list.count))] }
        let rounds = 1 + Int(random.next() % 3)
        for _ in 0..<rounds {
            let index = Int(random.next() % UInt64(lines.count))
            switch random.next() % 7 {
            case 0, 1, 2:
                // Replace the value after "key:" (or a list item) with an extreme.
                let line = lines[index]
                if let colon = line.firstIndex(of: ":") {
                    lines[index] = String(line[...colon]) + " " + pick(extremes)
                } else if let dash = line.firstIndex(of: "-") {
                    lines[index] = String(line[...dash]) + " " + pick(extremes)
                } else {
                    lines[index] = pick(extremes)
                }
            case 3: lines.remove(at: index)
            case 4: lines.insert(pick(garbage), at: index)
            case 5: lines.insert(lines[index], at: index)
            default:
                let joined = lines.joined(separator: "\n")
                let cut = Int(random.next() % UInt64(max(1, joined.utf8.count)))
                lines = String(decoding: joined.utf8.prefix(cut), as: UTF8.self).components(separatedBy: "\n")
            }
            if lines.isEmpty { lines = [""] }
        }
        return lines.joined(separator: "\n")
    }
}
