import Checks
import Foundation

/// Findings that share a known root cause, grouped under it with its standard fix (issue 39, point 5). A deep
/// search of a program that writes its backup through SQLite in DELETE journal mode finds the same loss at many
/// points (the journal's unlink, never followed by an fsync of its folder, undone by a crash after success), and
/// printed as one finding per walk it reads as many bugs. The op log says what each crash dropped and whose call
/// it was (`LossRecord` in the finding's run record); a finding whose lost calls match a known cause is named by
/// it, and the page, the JSON and the terminal list each cause once, with its fix and the points it explains.
///
/// The same record says whose the lost calls were: when none of them was made by the program's own process (the
/// command the user gave: `sh`, `python3`) but only by tools it ran (`cp`, `mv`, `sqlite3`), the cause says so,
/// since the line to change is then in the script's use of that tool, or in an adapter around the program.
extension DeepSearch {
    /// One known root cause and the findings it explains.
    public struct RootCause: Sendable, Codable, Equatable {
        /// "sqlite-delete-journal", "never-syncs", "rename-no-folder-fsync".
        public var name: String
        /// What the program's calls did, in one phrase.
        public var title: String
        /// The standard fix.
        public var fix: String
        /// The findings it explains: "backup: crash keep-none after it reported success, N=1".
        public var points: [String]
    }

    /// The known root causes, in the order they are tried on a finding (the most specific first).
    static let rootCauseCatalog: [(name: String, title: String, fix: String)] = [
        ("sqlite-delete-journal",
         "SQLite's DELETE-mode commit: the backup's -journal unlinked with no fsync of its folder, so a power cut right after success brings the journal back and the next open rolls the backup's last transaction back",
         "open the connection that writes the backup with `PRAGMA synchronous=EXTRA` (SQLite then fsyncs the folder after it deletes the journal; https://sqlite.org/pragma.html#pragma_synchronous), or fsync the backup's folder before reporting success"),
        ("never-syncs",
         "the program never syncs: no fsync of a file or a folder before it reports success, so the backup is in the page cache only",
         "fsync each file the backup is made of, then the folder that names them (or `sync -f` on the folder), before reporting success"),
        ("rename-no-folder-fsync",
         "a rename into place with no fsync of the folder it names the file in, so a power cut right after success can undo the rename",
         "fsync the folder after the rename (open it read-only and fsync it) before reporting success"),
    ]

    /// The known root cause of a finding whose crash dropped `operations` (the run record's `LossRecord` whose
    /// cause the finding quotes), given whether the program ever called fsync or fsyncdir (the probe's counts);
    /// nil for a loss none of them explains, or one that is not the program's.
    static func rootCause(of operations: [LossRecord.Operation], programSyncs: Bool) -> String? {
        let programs = operations.filter { $0.kind == .program && $0.barrier == "never" }
        guard !programs.isEmpty else { return nil }
        // The journal of a database that stays where it is: one renamed later (a temporary name) takes the
        // journal's loss with the rename's, which is then the cause.
        let renamed = Set(programs.filter { $0.what.hasPrefix("rename ") }.map(\.path))
        if programs.contains(where: { $0.what.hasPrefix("unlink ") && $0.path.hasSuffix("-journal")
                                      && !renamed.contains(String($0.path.dropLast("-journal".count))) }) { return "sqlite-delete-journal" }
        if !programSyncs { return "never-syncs" }
        if programs.contains(where: { $0.what.hasPrefix("rename ") }) { return "rename-no-folder-fsync" }
        return nil
    }

    /// When every lost call of the program was made by a tool it ran and none by its own process, the sentence
    /// that says so ("only calls of tools the program ran were lost (mv), none of its own process's (sh)"), which
    /// goes first in the finding's cause (so the terminal's first clause of it shows it too); nil otherwise.
    /// `command` is the program's command line: its first word names its own process (`sh`, `python3`).
    static func toolsOnlyNote(_ operations: [LossRecord.Operation], command: String?) -> String? {
        guard let own = command.flatMap(Self.commandName) else { return nil }
        let tools = operations.filter { $0.kind == .program }.map { Self.toolName(of: $0.actor) }
        guard !tools.isEmpty, tools.allSatisfy({ $0 != nil && $0 != own }) else { return nil }
        var names: [String] = []
        for case let name? in tools where !names.contains(name) { names.append(name) }
        return "only calls of tools the program ran were lost (\(names.joined(separator: ", "))), none of its own process's (\(own))"
    }

    /// The command name a process of `command` has (what the op log records: at most 15 characters): the first
    /// word's last path component ("sh" for `sh /path/backup.sh`, "restic" for `/usr/bin/restic backup`), after
    /// any `VAR=value` words and `env`/`exec`.
    static func commandName(_ command: String) -> String? {
        let words = command.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let word = words.first(where: { !$0.contains("=") && $0 != "env" && $0 != "exec" }) else { return nil }
        let name = (word.trimmingCharacters(in: CharacterSet(charactersIn: "\"'")) as NSString).lastPathComponent
        return name.isEmpty ? nil : String(name.prefix(15))
    }

    /// "cp" from the actor "backup-1 (cp)"; nil when the actor names no command.
    static func toolName(of actor: String?) -> String? {
        guard let actor, let open = actor.lastIndex(of: "("), actor.hasSuffix(")") else { return nil }
        let name = actor[actor.index(after: open)..<actor.index(before: actor.endIndex)]
        return name.isEmpty ? nil : String(name)
    }

    /// The lost operations behind a finding: the `LossRecord` of the run (in `report`, its `record.json`) whose
    /// cause is the finding's; nil when the record cannot be read or holds none.
    static func lossOperations(report: String, cause: String?) -> [LossRecord.Operation]? {
        guard let cause, let record = try? RecordFile.read(URL(fileURLWithPath: report).appendingPathComponent(RecordFile.name)) else { return nil }
        var losses: [LossRecord] = [record.crash?.liveLoss].compactMap { $0 }
        for step in record.steps {
            if let loss = step.backup?.afterCrash?.loss { losses.append(loss) }
            if let loss = step.restore?.afterCrash?.loss { losses.append(loss) }
        }
        return losses.first { $0.cause == cause }?.operations
    }

    /// Names the finding's root cause and notes a loss of tools' calls only, from its run's record.
    static func explain(_ finding: inout Finding, report: String, calls: [String: Int]?, command: String?) {
        guard let operations = lossOperations(report: report, cause: finding.cause) else { return }
        let syncs = (calls?["fsync"] ?? 0) + (calls?["fsyncdir"] ?? 0) > 0
        finding.rootCause = rootCause(of: operations, programSyncs: syncs)
        if let note = toolsOnlyNote(operations, command: command), let cause = finding.cause {
            finding.cause = note + ": " + cause
        }
    }

    /// The summary's findings grouped under their root causes, in the catalog's order.
    static func rootCauses(of findings: [Finding]) -> [RootCause] {
        rootCauseCatalog.compactMap { known in
            let points = findings.filter { $0.rootCause == known.name }.map { "\($0.walk), N=\($0.n)" }
            return points.isEmpty ? nil : RootCause(name: known.name, title: known.title, fix: known.fix, points: points)
        }
    }
}
