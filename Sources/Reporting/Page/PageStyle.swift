import Foundation

/// The one style sheet of every page Lifeboat writes (run, suite, matrix and `try`, walk, crash states, bench),
/// and the head that embeds it: each page stays one self-contained file (no link, no script, no font or image
/// from elsewhere), so a page reads the same when CI hands the folder over as an artifact. A page's own look is
/// a class on `<body>` (`wide` for pages of side-by-side charts or many columns), never a second sheet.
public enum PageStyle {
    /// The first line of the sheet, so a test (or a person reading the source) finds the one sheet in a page.
    public static let marker = "/* lifeboat page style */"

    /// Plain CSS: no `url(`, no `@import` (a page names nothing outside itself). The SVG font is set on `svg`, not
    /// on `svg text`, so a chart's own `font-size` attributes (titles, axis names) still apply over it.
    public static let css = """
        \(marker)
        body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}
        body.wide{max-width:none}
        h1{font-size:1.4em}
        .ok{color:#176f2c} .bad{color:#b00020} .warn{color:#8a5a00}
        table{border-collapse:collapse;margin:1em 0;width:100%}
        td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top} th{background:#f4f4f4}
        small{color:#555;font-weight:normal}
        tr.violated td{background:#fde8ea} tr.flaky td{background:#fff4d6} tr.skipped td{color:#777;background:#f7f7f7}
        tr.held td:nth-child(2){color:#176f2c} tr.not-applicable td{color:#777}
        td.held{background:#e6f4e6} td.caught{background:#fbe3e3} td.notrun{background:#eee}
        .finding{border-left:4px solid #b00020;padding:2px 12px;margin:1em 0} .finding.app{border-color:#e08a00}
        .finding h3{margin:.3em 0;font-size:1.05em} .finding p{margin:.3em 0} .severity{color:#777;font-weight:normal}
        .verdict{font-weight:bold;font-size:1.1em}
        .charts{display:flex;flex-wrap:wrap;gap:2em}
        details{margin:.5em 0} summary{cursor:pointer;color:#444}
        svg{font:11px system-ui,sans-serif} code{background:#f3f3f3;padding:1px 4px}
        """

    /// The page's opening: doctype, head with its title and the one sheet, and `<body>` (with `bodyClass`).
    public static func open(title: String, bodyClass: String? = nil) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(PageText.html(title))</title>
        <style>
        \(css)
        </style></head><body\(bodyClass.map { " class=\"\(PageText.html($0))\"" } ?? "")>

        """
    }

    /// The page's end.
    public static let close = "</body></html>\n"
}
