import Checks
@testable import Explore
import Foundation
import FoundationXML
import Reporting
@testable import Runner
import Testing

/// Every page Lifeboat writes embeds the one style sheet (`PageStyle`) and no other, and the one escaper
/// (`PageText`) keeps each page's SVG well-formed; the bench page's share of this is in BenchTests' ReportTests.
@Suite struct PageStyleTests {
    /// Each page renderer outside the bench, on a small input of its own.
    static func pages() -> [(name: String, html: String)] {
        let run = ReportTests.result
        let suite = CampaignTests.summary([SuiteEntry.ran(run, path: "runs/r", reruns: [])], campaign: nil)
        let matrix = ToolMatrix.Result(matrixID: "m <1>", directory: "Scenarios/tools", command: "lifeboat matrix", startedAt: "2026-01-01T00:00:00Z",
                                       seconds: 1, seeds: [1], tools: [], situations: ["live-wal"], cells: [])
        let walk = FaultWalk.State(scenario: "walk <&>", config: FaultWalk.Config(scenarioFile: "w.yaml", ops: [.fsync], path: "*.sqlite", action: .errno(.EIO)))
        return [("run", HTMLReport.render(run)), ("suite", SuiteHTMLReport.render(suite)), ("matrix", ToolMatrixReport.html(matrix)),
                ("walk", FaultWalkReport.html(walk))]
    }

    @Test func everyPageEmbedsTheOneStyleSheetAndNoOther() {
        for page in Self.pages() {
            #expect(page.html.components(separatedBy: "<style").count - 1 == 1, "\(page.name): one <style>")
            #expect(page.html.contains(PageStyle.css), "\(page.name): the sheet is PageStyle.css, whole")
            #expect(page.html.components(separatedBy: PageStyle.marker).count - 1 == 1, "\(page.name)")
            #expect(!page.html.contains(" style=\""), "\(page.name): no inline style beside the sheet")
            #expect(page.html.hasPrefix("<!DOCTYPE html>") && page.html.hasSuffix("</body></html>\n"), "\(page.name)")
        }
    }

    /// The sheet names nothing outside the page, so each page stays one self-contained file.
    @Test func theSheetIsSelfContained() {
        for forbidden in ["url(", "@import", "http", "href=", "src="] { #expect(!PageStyle.css.contains(forbidden), "\(forbidden)") }
    }

    /// Text that is no XML (a control character a child's output can carry, markup in a scenario's name) still
    /// leaves every SVG of the run page parseable, as the Chromium checks read it.
    @Test func theEscaperKeepsEverySVGWellFormed() throws {
        var run = ReportTests.result
        run.operations[0].name = "backup-0 <\u{1B}[31m\"x\"&>"
        run.events[0].detail = "crash \u{07}'keep-none'"
        let page = HTMLReport.render(run)
        let start = try #require(page.range(of: "<svg")), end = try #require(page.range(of: "</svg>"))
        #expect(throws: Never.self) { _ = try XMLDocument(xmlString: String(page[start.lowerBound..<end.upperBound])) }
        #expect(PageText.html("a<b>&\"c\"\u{1}") == "a&lt;b&gt;&amp;&quot;c&quot;")
        #expect(PageText.xml("it's") == "it&apos;s" && PageText.html("it's") == "it's")
        #expect(PageText.markdownCell("a|b\nc") == "a\\|b c")
    }

    /// One place in the sources writes a `<style` element: PageStyle. A page that brings its own sheet fails here.
    @Test func theSourcesHoldOneStyleElement() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        var places: [String] = []
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains("<style") {
                places.append("\(file.lastPathComponent):\(index + 1)")
            }
        }
        #expect(places.count == 1 && places.first?.hasPrefix("PageStyle.swift") == true, "\(places)")
    }
}
