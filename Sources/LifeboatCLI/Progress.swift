import Foundation

/// The progress of long work (campaigns, the matrix, `try`, walks, crash-state enumeration) on a terminal: one
/// line at the bottom, redrawn in place, with the count done, the total and an estimate of the time left from
/// the mean time per unit so far. Piped output (a file, CI) gets only the plain lines, never the redraws.
final class Progress: @unchecked Sendable {
    let total: Int?
    let label: String
    let started = Date()
    private(set) var done = 0
    /// Drawn only when stdout is a terminal that can redraw a line (not `TERM=dumb`).
    let live: Bool
    private let lock = NSLock()

    init(total: Int?, label: String, live: Bool = Progress.terminal) {
        self.total = total
        self.label = label
        self.live = live
    }

    static let terminal: Bool = isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["TERM"] != "dumb"

    /// A unit finished: its line goes above the progress line, which is redrawn with one more done.
    func step(_ line: String? = nil) {
        lock.withLock {
            done += 1
            emit(line)
        }
    }

    /// Work that reports its own count ("12/40 points"): the first `done/total` in `line` sets both; the line
    /// itself is shown only in the progress line on a terminal, and printed as it is otherwise.
    func update(_ line: String) {
        lock.withLock {
            if let (done, total) = Self.fraction(in: line) {
                self.done = done
                self.reported = total
            }
            if live { write("\r\u{1B}[2K" + status() + " · " + line) } else { write("  " + line + "\n") }
        }
    }

    private var reported: Int?

    /// The first "A/B" of whole numbers in `text`.
    static func fraction(in text: String) -> (Int, Int)? {
        for word in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ":" }) {
            let parts = word.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), b > 0 { return (a, b) }
        }
        return nil
    }

    /// A line that is not a unit of work.
    func note(_ line: String) { lock.withLock { emit(line) } }

    /// Clears the progress line (before the summary).
    func finish() { lock.withLock { if live { write("\r\u{1B}[2K") } } }

    /// "[3/21 runs] 14% · 0:42 elapsed · about 4:18 left".
    func status(now: Date = Date()) -> String {
        let elapsed = now.timeIntervalSince(started)
        let total = reported ?? self.total
        var text = "[\(done)" + (total.map { "/\($0)" } ?? "") + " \(label)]"
        if let total, total > 0 {
            text += " \(min(100, done * 100 / total))%"
        }
        text += " · \(Self.clock(elapsed)) elapsed"
        if let total, done > 0, done < total {
            text += " · about \(Self.clock(elapsed / Double(done) * Double(total - done))) left"
        }
        return text
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    private func emit(_ line: String?) {
        if live { write("\r\u{1B}[2K") }
        if let line { write("  " + line + "\n") }
        if live { write(status()) }
    }

    private func write(_ text: String) {
        // Through print, as every other line of the command, so a pipe keeps the order.
        print(text, terminator: "")
        fflush(nil)
    }
}
