import Foundation

/// The one way every report escapes text: HTML text and attribute values (and the SVG inside a page), JUnit's
/// XML, and Markdown table cells. Run, suite, matrix, `try`, walk, crash-state and bench pages and the JUnit
/// files all call these, so a character that breaks one page breaks none.
public enum PageText {
    /// Text safe inside HTML elements and double-quoted attributes, and inside a page's SVG when it is read as
    /// XML: `& < > "` escaped, and the control characters below space other than tab and newline dropped (XML 1.0
    /// forbids most of them; a carriage return is dropped too, as JUnit readers have always had it).
    public static func html(_ text: String) -> String { escaped(text, apostrophe: false) }

    /// Text safe in XML text and attribute values in either quotes (JUnit): as `html`, and `'` as `&apos;`.
    public static func xml(_ text: String) -> String { escaped(text, apostrophe: true) }

    /// Text safe in one cell of a Markdown table: no column bar, one line.
    public static func markdownCell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
    }

    static func escaped(_ text: String, apostrophe: Bool) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'" where apostrophe: result += "&apos;"
            default:
                if scalar.value < 0x20, scalar != "\n", scalar != "\t" { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
