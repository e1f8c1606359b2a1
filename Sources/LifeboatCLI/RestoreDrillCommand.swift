import ArgumentParser
import Foundation

/// `lifeboat restore-drill --backup PATH --restore CMD`: restores the user's real backup with their restore program
/// into scratch and checks it (`RestoreDrill`), writing a dated evidence record. Exit 0 every check passed, 1 one
/// failed (the backup or the restore is not good: each reason printed), 2 bad input or a program that could not
/// start.
struct RestoreDrillCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore-drill",
        abstract: "Restore your real backup with your restore program into scratch, check it, and write dated evidence (JSON + Markdown).",
        discussion: """
            The restore program runs with /bin/sh -c from the current directory, with LIFEBOAT_BACKUP (a private \
            copy of the backup: your folder, archive or file is never touched) and LIFEBOAT_STORE (the .sqlite to \
            restore into, in an empty scratch folder). Then the restored store is checked as `lifeboat check` \
            does: it exists and is not empty, it opens, integrity, bookkeeping, every attachment (external data \
            file) resolves, it holds at least --min-objects objects, the backup is no older than --max-age, and \
            with --live it equals the live store (`check --against`). The evidence (evidence.json, schema \
            lifeboat.restore-drill/1 in docs/schemas, and evidence.md) records the backup's SHA-256 and age, the \
            restore program and its SHA-256, Lifeboat's and SQLite's versions and each check. Exit 0 passed, 1 a \
            check failed (each reason printed), 2 bad input or a restore program that could not start.
            """)

    @Option(help: ArgumentHelp("Your latest backup: the folder, archive or file your backup tool produced.", valueName: "path")) var backup: String
    @Option(help: ArgumentHelp("Your restore command line (shell).", valueName: "command")) var restore: String
    @Option(help: ArgumentHelp("The restored store's file name (default: the .sqlite in the backup folder, else Restored.sqlite).", valueName: "name"))
    var storeName: String?
    @Option(help: ArgumentHelp("The live store: the restored store must equal it (check --against).", valueName: "path")) var live: String?
    @Option(help: ArgumentHelp("The oldest the backup may be (24h, 7d, 90m): its newest file's age.", valueName: "duration")) var maxAge: String?
    @Option(help: "The fewest objects the restored store must hold (an empty restore answers every health check).") var minObjects = 1
    @Option(help: ArgumentHelp("Where the evidence goes (a dated folder restore-drill-<date> is made under it).", valueName: "dir"))
    var evidence: String = "reports"
    @Option(help: "Scratch directory for the restore.") var scratch: String?
    @Option(help: ArgumentHelp("Stop the restore program after this long (30m).", valueName: "duration")) var timeout: String = "30m"

    func validate() throws {
        if let maxAge, Self.seconds(maxAge) == nil { throw ValidationError("--max-age must be a duration (24h, 7d, 90m), not '\(maxAge)'") }
        if Self.seconds(timeout) == nil { throw ValidationError("--timeout must be a duration (30m, 1h), not '\(timeout)'") }
        if restore.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--restore needs a command line") }
        guard minObjects >= 0 else { throw ValidationError("--min-objects must be 0 or more") }
    }

    /// A duration with days too (7d), else as `DurationText` reads it.
    static func seconds(_ text: String) -> Double? {
        if text.hasSuffix("d"), let days = Double(text.dropLast()), days > 0 { return days * 86400 }
        return DurationText.seconds(text)
    }

    func run() throws {
        let now = Date()
        let options = RestoreDrill.Options(
            backup: URL(cliPath: backup), restore: restore, storeName: storeName, live: live.map { URL(cliPath: $0) },
            maxAge: maxAge.flatMap(Self.seconds), minObjects: minObjects,
            scratch: scratch.map { URL(cliPath: $0) } ?? FileManager.default.temporaryDirectory.appendingPathComponent("lifeboat-scratch"),
            workingDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath), timeout: Self.seconds(timeout) ?? 1800, now: now)
        let record: RestoreDrill.Evidence
        do { record = try RestoreDrill.run(options) } catch RestoreDrill.DrillError.badInput(let message) {
            throw CLIFailure.badInput("not run: \(message)")
        }
        let stamp = DateFormatter()
        stamp.dateFormat = "yyyyMMdd-HHmmss"
        stamp.timeZone = TimeZone(identifier: "UTC")
        let folder = URL(cliPath: evidence).appendingPathComponent("restore-drill-\(stamp.string(from: now))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(record).write(to: folder.appendingPathComponent("evidence.json"))
        try Data(RestoreDrill.markdown(record).utf8).write(to: folder.appendingPathComponent("evidence.md"))
        for check in record.checks { print("\(check.status.rawValue.uppercased().padding(toLength: 8, withPad: " ", startingAt: 0))\(check.name): \(check.detail)") }
        print("restore drill \(record.passed ? "PASSED" : "FAILED"): evidence in \(folder.path)/evidence.json and evidence.md")
        if !record.passed { throw ExitCode(1) }
    }
}
