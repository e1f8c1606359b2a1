import Foundation

/// Compares the pages of two report folders (a sharded run merged, and the same run unsharded) with only what
/// differs between any two runs taken out: the folders' own paths (`roots`, each given as it is and replaced by
/// `<root>`), run and folder ids (`yyyyMMdd-HHmmss-xxxxxx`), ISO 8601 times and durations in seconds or ms (a deep
/// search's `pointSeconds` among them: each point's time limit is six times its probe's measured time). Every other
/// character counts: a row lost, repeated or out of order, a count, a verdict, an evidence line.
public enum PageComparison {
    public static func normalized(_ text: String, roots: [URL]) -> String {
        var text = text
        // The longest first, so a root inside another is not half-replaced.
        for root in roots.map({ $0.standardizedFileURL.path }).sorted(by: { $0.count > $1.count }) {
            // As it is, reached as a resolved link (/private on macOS), and as JSONEncoder writes it ("\/tmp\/...").
            let resolved = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
            for form in Set([root, resolved]).flatMap({ [$0, $0.replacingOccurrences(of: "/", with: "\\/")] }) {
                text = text.replacingOccurrences(of: form, with: "<root>")
            }
        }
        let rules: [(String, String)] = [
            (#"[0-9]{8}-[0-9]{6}-[0-9a-f]{6}"#, "<id>"),
            (#"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z"#, "<time>"),
            (#""seconds" : [0-9.e+-]+"#, #""seconds" : <t>"#),
            (#""pointSeconds" : \{[^}]*\}"#, #""pointSeconds" : <t>"#),
            (#"[0-9]+(\.[0-9]+)? (s|ms)\b"#, "<t> $2"),
        ]
        for (pattern, replacement) in rules {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }

    /// The first line where the two normalized texts differ ("line N: A | B"), or nil when they are equal.
    public static func firstDifference(_ a: String, _ b: String, roots: [URL]) -> String? {
        let x = normalized(a, roots: roots).components(separatedBy: "\n")
        let y = normalized(b, roots: roots).components(separatedBy: "\n")
        for index in 0..<max(x.count, y.count) {
            let l = index < x.count ? x[index] : "<end>", r = index < y.count ? y[index] : "<end>"
            if l != r { return "line \(index + 1):\n  \(l)\n  \(r)" }
        }
        return nil
    }

    /// Every file `names` of the two folders compared; the differences, one per file that differs.
    public static func differences(_ a: URL, _ b: URL, files names: [String], roots: [URL]) throws -> [String] {
        try names.compactMap { name in
            let x = try String(contentsOf: a.appendingPathComponent(name), encoding: .utf8)
            let y = try String(contentsOf: b.appendingPathComponent(name), encoding: .utf8)
            return firstDifference(x, y, roots: roots).map { "\(name) \($0)" }
        }
    }
}
