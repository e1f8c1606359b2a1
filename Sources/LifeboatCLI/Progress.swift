import Foundation

/// The progress of long work (campaigns, the matrix, `try`, walks, crash-state enumeration, `generate`, `bench`,
/// replays) on a terminal: one line at the bottom, redrawn in place, with the count done, the total and an
/// estimate of the time left from the mean time per unit so far, then what is going on now. Piped output (a
/// file, CI) gets only the plain lines, never the redraws: finished units, and for work measured in bytes or
/// objects one line per tenth done.
final class Progress: @unchecked Sendable {
    /// How counts read: plain numbers ("3/21 runs") or bytes ("412 MB/1.0 GB written").
    enum Unit: Sendable { case count, bytes }

    private(set) var total: Int?
    let label: String
    let unit: Unit
    let started = Date()
    private(set) var done = 0
    /// Drawn only when stdout is a terminal that can redraw a line (not `TERM=dumb`).
    let live: Bool
    private let lock = NSLock()
    /// What runs now (a run's latest step, the round under way), shown after the status on a terminal.
    private var current: String?
    /// The last tenth printed as a plain line (piped output of `set`).
    private var lastTenth = -1

    init(total: Int?, label: String, unit: Unit = .count, live: Bool = Progress.terminal) {
        self.total = total
        self.label = label
        self.unit = unit
        self.live = live
    }

    /// Work measured in its own units (bytes written, notes generated): sets the count outright. On a terminal the
    /// line is redrawn; piped, a plain line is printed each time another tenth is done.
    func set(done: Int, total: Int? = nil) {
        lock.withLock {
            self.done = done
            if let total { self.total = total }
            if live {
                write("\r\u{1B}[2K" + line())
            } else if let all = self.total, all > 0 {
                let tenth = min(10, done * 10 / all)
                if tenth > lastTenth {
                    lastTenth = tenth
                    write("  " + status() + "\n")
                }
            }
        }
    }

    /// Redraws the line every second on a terminal, so the elapsed time moves during one long step (a store
    /// copied, a single run); stopped by `finish`.
    func tick() {
        guard live else { return }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.lock.withLock { if self.ticking != nil { self.write("\r\u{1B}[2K" + self.line()) } }
        }
        lock.withLock { ticking = timer }
        timer.resume()
    }

    private var ticking: (any DispatchSourceTimer)?

    /// What is going on inside the current unit; on a terminal only (piped output keeps to finished units).
    func activity(_ text: String) {
        lock.withLock {
            current = text
            if live { write("\r\u{1B}[2K" + line()) }
        }
    }

    static let terminal: Bool = isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["TERM"] != "dumb"

    /// A unit finished: its line goes above the progress line, which is redrawn with one more done.
    func step(_ line: String? = nil) {
        lock.withLock {
            done += 1
            current = nil
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
            if live { write("\r\u{1B}[2K" + Self.fit(status() + " · " + line)) } else { write("  " + line + "\n") }
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

    /// Clears the progress line (before the summary) and stops the ticking.
    func finish() {
        lock.withLock {
            ticking?.cancel()
            ticking = nil
            if live { write("\r\u{1B}[2K") }
        }
    }

    /// "[3/21 runs] 14% · 0:42 elapsed · about 4:18 left".
    func status(now: Date = Date()) -> String {
        let elapsed = now.timeIntervalSince(started)
        let total = reported ?? self.total
        // Work with no count yet and no total (one long step): the label alone.
        var text = total == nil && done == 0 ? "[\(label)]" : "[\(amount(done))" + (total.map { "/\(amount($0))" } ?? "") + " \(label)]"
        if let total, total > 0 {
            text += " \(min(100, done * 100 / total))%"
        }
        text += " · \(Self.clock(elapsed)) elapsed"
        if let total, done > 0, done < total {
            text += " · about \(Self.clock(elapsed / Double(done) * Double(total - done))) left"
        }
        return text
    }

    func amount(_ value: Int) -> String {
        switch unit {
        case .count: String(value)
        case .bytes: Self.bytes(value)
        }
    }

    /// Decimal units, as `ls -h --si` and the bench report: "412 MB", "1.0 GB".
    static func bytes(_ value: Int) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var amount = Double(value), index = 0
        while amount >= 1000, index < units.count - 1 {
            amount /= 1000
            index += 1
        }
        return index == 0 ? "\(value) B" : String(format: amount < 10 ? "%.1f %@" : "%.0f %@", amount, units[index])
    }

    /// The status, then what runs now, cut to the terminal's width so the line never wraps (a wrapped line
    /// cannot be redrawn in place).
    private func line() -> String { Self.fit(status() + (current.map { " · " + $0 } ?? "")) }

    static func fit(_ text: String, columns: Int = Progress.columns()) -> String {
        text.count <= columns ? text : String(text.prefix(max(10, columns - 1))) + "…"
    }

    /// The terminal's width (TIOCGWINSZ on stdout), or `COLUMNS`, or 80.
    static func columns() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    private func emit(_ text: String?) {
        if live { write("\r\u{1B}[2K") }
        if let text { write("  " + text + "\n") }
        if live { write(line()) }
    }

    private func write(_ text: String) {
        // Through print, as every other line of the command, so a pipe keeps the order.
        print(text, terminator: "")
        fflush(nil)
    }
}
