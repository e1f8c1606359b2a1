/// Lists in help texts: the fault action kinds and FaultFS's control verbs are shown in `faultfs`'s usage and in
/// `lifeboat faultfs --help` at two widths, each from its one list.
public enum HelpText {
    /// `items` comma-separated, in lines of at most `width` characters each starting with `indent` (an item is
    /// never split).
    public static func wrappedList(_ items: [String], width: Int, indent: String) -> String {
        var lines: [String] = []
        var line = indent
        for (index, item) in items.enumerated() {
            let word = item + (index == items.count - 1 ? "" : ",")
            if line != indent, line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
            }
            line += (line == indent ? "" : " ") + word
        }
        return (lines + [line]).joined(separator: "\n")
    }
}
