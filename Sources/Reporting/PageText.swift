import Foundation

/// The one way every report escapes text: HTML text and attribute values, and Markdown table cells. Run, suite,
/// matrix, `try`, walk and bench pages all call these, so a character that breaks one page breaks none.
public enum PageText {
    /// Text safe inside HTML elements and double-quoted attributes.
    public static func html(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Text safe in one cell of a Markdown table: no column bar, one line.
    public static func markdownCell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
