import ArgumentParser
import Foundation
import StoreCheck
import StoreModel

/// `lifeboat check STORE [--against OTHER]`: verifies a store, and compares it with another.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Verify a store: integrity, bookkeeping, external data, identities; with --against, logical equality.",
        discussion: """
        Works on any Core Data SQLite store (it reads the layout, not a model). It reads a private copy of the store         (database and -wal, as large as they are) in TMPDIR, so nothing in the store's folder changes; set TMPDIR         to a roomy folder for a large store. Exit 0 ok, 1 violation, 2 bad input.
        """)

    @Argument(help: "The .sqlite file of the store.") var store: String
    @Option(help: "A store this one must equal, object by object and blob by blob.") var against: String?
    @Flag(help: "Print the report as JSON.") var json = false

    func run() throws {
        let report: CheckReport
        // A large store takes a while (a private copy first, then every check): a progress line says which step.
        let size = StoreSize.of(URL(cliPath: store)) + (against.map { StoreSize.of(URL(cliPath: $0)) } ?? 0)
        let progress = size >= Self.largeStore && !json ? Progress(total: nil, label: "checking \(Progress.bytes(Int(size)))") : nil
        progress?.tick()
        defer { progress?.finish() }
        let step: ((String) -> Void)? = progress.map { progress in { progress.activity($0) } }
        do {
            if let against {
                report = try StoreComparison.compare(URL(cliPath: store), against: URL(cliPath: against), progress: step)
            } else {
                report = try StoreVerifier.verify(URL(cliPath: store), progress: step)
            }
        } catch StoreError.missingStore(let path) {
            throw CLIFailure.badInput("no store at \(path)")
        }
        progress?.finish()
        if let reason = report.unopenable { throw CLIFailure.badInput(reason) }
        print(json ? Self.json(report) : Self.text(report))
        if report.hasViolations { throw ExitCode(1) }
    }

    /// Stores from this size on (both, with --against) get a progress line.
    static let largeStore: Int64 = 100_000_000

    static func json(_ report: CheckReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(report)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }

    static func text(_ report: CheckReport) -> String {
        var lines = ["store: \(report.store)"]
        if let against = report.against { lines.append("against: \(against)") }
        let counts = report.objectCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        lines.append("objects: \(counts.isEmpty ? "none" : counts)")
        lines.append("external data: \(report.externalReferences) references, \(report.externalFiles) files")
        for finding in report.findings { lines.append("  \(finding)") }
        for (kind, count) in report.suppressed.sorted(by: { $0.key < $1.key }) { lines.append("  ... and \(count) more \(kind)") }
        let violations = report.violations.count + report.suppressed.values.reduce(0, +)
        let verdict = report.hasViolations ? "VIOLATION (\(violations) finding(s))" : "OK"
        lines.append("verdict: \(verdict) in \(String(format: "%.2f", report.seconds)) s")
        return lines.joined(separator: "\n")
    }
}
