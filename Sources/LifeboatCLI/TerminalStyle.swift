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

    /// A word that says how things went: green when good, red when not.
    static func outcome(_ text: String, good: Bool) -> String { paint(text, good ? .green : .red) }
}
