import Foundation

/// Colour for verdict words on a terminal, and none when stdout is a file or a pipe, when `NO_COLOR` is set
/// (https://no-color.org) or when `TERM=dumb`, so logs and CI output stay plain text.
enum TerminalStyle {
    enum Color: String {
        case red = "31", green = "32", yellow = "33", bold = "1"
    }

    static let enabled: Bool = {
        let environment = ProcessInfo.processInfo.environment
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return isatty(STDOUT_FILENO) != 0
    }()

    static func paint(_ text: String, _ color: Color, enabled: Bool = enabled) -> String {
        enabled ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// The terminal's width in columns, for lines that wrap to it; nil when stdout is a file or a pipe (full
    /// lines, one per finding, for logs and `grep`). `COLUMNS` overrides it either way.
    static let columns: Int? = {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text), columns >= 40 { return columns }
        guard isatty(STDOUT_FILENO) != 0 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 40 else { return 80 }
        return Int(size.ws_col)
    }()

    /// The characters a painted word adds that take no column (its escape sequences), for wrapping a line
    /// that holds one.
    static var overhead: Int { enabled ? 9 : 0 }

    /// A word that says how things went: green when good, red when not.
    static func outcome(_ text: String, good: Bool) -> String { paint(text, good ? .green : .red) }
}
