@testable import LifeboatCLI
import Testing

/// Colour only where asked for: escape codes around the word on a terminal, the bare word otherwise.
@Suite struct TerminalStyleTests {
    @Test func paintsOnlyWhenEnabled() {
        #expect(TerminalStyle.paint("VIOLATED", .red, enabled: true) == "\u{1B}[31mVIOLATED\u{1B}[0m")
        #expect(TerminalStyle.paint("VIOLATED", .red, enabled: false) == "VIOLATED")
    }
}
