import Foundation

/// A long program output cut for a message: its head and its tail, never cut mid-line where a line break is
/// near, with how much was left out in between. Why: a traceback's start says what failed and its end says
/// where; the last N characters alone lose the first.
public enum OutputExcerpt {
    public static func headAndTail(_ text: String, limit: Int = 1200) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count > limit, limit >= 40 else { return trimmed }
        let half = limit / 2
        var head = String(trimmed.prefix(half))
        if let cut = head.lastIndex(of: "\n"), head.distance(from: cut, to: head.endIndex) < half / 3 { head = String(head[..<cut]) }
        var tail = String(trimmed.suffix(half))
        if let cut = tail.firstIndex(of: "\n"), tail.distance(from: tail.startIndex, to: cut) < half / 3 { tail = String(tail[tail.index(after: cut)...]) }
        let omitted = trimmed.count - head.count - tail.count
        return head + "\n[... \(omitted) characters left out ...]\n" + tail
    }
}
