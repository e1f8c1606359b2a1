import ChildProcesses
import Foundation
import Scenario
import Reporting
import StoreModel

/// `lifeboat try`: a user's backup (and restore) program, run unchanged through the standard situations
/// (`Situations`), as a recipe of the matrix made on the spot: the program's command lines take the place of
/// the situations' `backup.sh` and `restore.sh`, so `try` and `lifeboat matrix` judge a program in exactly the
/// same scenarios.
public enum TryProgram {
    public struct Program: Sendable {
        /// Shell command lines, run as they are (`LIFEBOAT_STORE`, `LIFEBOAT_BACKUP_DIR`; `LIFEBOAT_BACKUP`).
        public var backup: String
        public var restore: String?
        /// The user's own store, copied for every run (`store: {from: PATH}`); nil: a generated store.
        public var store: URL?
        public init(backup: String, restore: String?, store: URL?) {
            self.backup = backup
            self.restore = restore
            self.store = store
        }
    }

    /// A situation `try` leaves out, with why.
    public typealias Skipped = (situation: String, reason: String)

    public static let recipeName = "program"

    /// Writes the situations under `root` and the program's folder (`root/tools/program/`, its recipe.md), and
    /// returns the recipe fitted to the program: every situation's backup and restore steps run the user's
    /// command lines, with a script they name by a relative path (from `workingDirectory`) named by its absolute
    /// path (`ProgramFiles.pinned`), so the runner's preflight sees the program itself and the runs and their
    /// repros work from any folder, with the user's own file (its `$0` and `__file__`, and the files beside it);
    /// without a restore program the restore steps go, and a situation about a restore is skipped; with a store
    /// of the user's, every run starts from a copy of it.
    public static func recipe(for program: Program, at root: URL, workingDirectory: URL,
                              only: [String]? = nil) throws -> (recipe: ToolMatrix.Recipe, tools: URL, skipped: [Skipped]) {
        let tools = try Situations.materialize(at: root)
        let folder = tools.appendingPathComponent(recipeName)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let backup = ProgramFiles.pinned(program.backup, scenarioDirectory: folder.path, workingDirectory: workingDirectory.path)
        let restore = program.restore.map { ProgramFiles.pinned($0, scenarioDirectory: folder.path, workingDirectory: workingDirectory.path) }
        try Data(("`\(program.backup)`" + (program.restore.map { ", restored with `\($0)`" } ?? "") + "\n").utf8)
            .write(to: folder.appendingPathComponent("recipe.md"))
        var situations = try ToolMatrix.situationFiles(in: tools).map { name, file in
            (name: name, file: folder.appendingPathComponent("\(name).yaml"),
             scenario: try ScenarioParser.parse(file: file, defaultName: "try-\(name)"), measured: false)
        }
        guard !situations.isEmpty else { throw ToolMatrix.MatrixError.badInput("no situations in this build") }
        var skipped: [Skipped] = []
        if let only {
            let known = situations.map(\.name)
            for name in only where !known.contains(name) {
                if let pending = Situations.pending.first(where: { $0.name == name }) {
                    throw ToolMatrix.MatrixError.badInput("--situations: \(name) is \(pending.reason)")
                }
                throw ToolMatrix.MatrixError.badInput("--situations: no situation named \(name) (have \(known.joined(separator: ", ")))")
            }
            situations.removeAll { !only.contains($0.name) }
        }
        situations = situations.compactMap { situation in
            var situation = situation
            var scenario = situation.scenario
            scenario.name = "try-\(situation.name)"
            scenario.description = "\(situation.name): `lifeboat try` of \(program.backup)" + (program.restore.map { " and \($0)" } ?? "")
            if restore == nil {
                if let step = scenario.faults.crash?.duringStep, scenario.schedule.indices.contains(step), scenario.schedule[step].action == .restore {
                    skipped.append((situation.name, "a crash around the restore: give --restore to try it"))
                    return nil
                }
                if scenario.schedule.contains(where: { $0.damage.map { $0.target != .live } ?? false }) {
                    skipped.append((situation.name, "a damaged backup tests the restore: give --restore to try it"))
                    return nil
                }
                // A backup after a restore judges what the program backs up once its own restore ran.
                if let restore = scenario.schedule.firstIndex(where: { $0.action == .restore }),
                   scenario.schedule[(restore + 1)...].contains(where: { $0.action == .backup }) {
                    skipped.append((situation.name, "a backup after a restore: give --restore to try it"))
                    return nil
                }
                scenario.schedule.removeAll { $0.action == .restore }
            }
            for index in scenario.schedule.indices where scenario.schedule[index].command != nil {
                scenario.schedule[index].command = scenario.schedule[index].action == .restore ? restore : backup
            }
            if let store = program.store { scenario.store.from = store.standardizedFileURL.path }
            situation.scenario = scenario
            return situation
        }
        for pending in Situations.pending where only == nil && !situations.contains(where: { $0.name == pending.name }) {
            skipped.append((pending.name, pending.reason))
        }
        return (ToolMatrix.Recipe(tool: recipeName, directory: folder, situations: situations, versions: nil), tools, skipped)
    }

    /// Why the program cannot start, checked from its command lines before anything runs (`EnvironmentFailure`,
    /// the runner's own preflight: not installed, not executable, `sh FILE` or `python3 FILE` with no such
    /// readable FILE), relative paths from `workingDirectory`; nil when both can start.
    public static func preflight(_ program: Program, workingDirectory: URL) -> String? {
        for (option, command) in [("--backup", program.backup), ("--restore", program.restore)] {
            if let command, let reason = EnvironmentFailure.preflight(command: command, directory: workingDirectory.path) {
                return "\(option): \(reason)"
            }
        }
        return nil
    }

    /// The situations that cannot exercise what they are about on the user's store, each with why and how to
    /// exercise it: the attachments situation on a store with no attribute that allows external storage (no
    /// attachments to carry, and the writers add none). Such a situation is not run, and is no pass.
    public static func notExercised(on store: URL?, situations: [String]) throws -> [String: String] {
        guard let store, situations.contains("attachments"), try ExternalStorageColumns.of(store).isEmpty else { return [:] }
        return ["attachments": "your store has no attribute with external storage (no column holds Core Data's external-data "
                + "marker), so it has no attachments to carry and the writers add none; to exercise it, run without --store "
                + "(the generated store's notes carry attachments in .Library_SUPPORT/_EXTERNAL_DATA)"]
    }

    /// What `try` prints after its runs: one line per situation (held, caught with the invariants, not
    /// exercised, not run, skipped); then every finding once, worst first (`Severity`), with the situations and
    /// seeds it came back in, its consequence, evidence, op-log cause and fix, and a repro per situation; then the
    /// app's own findings, apart. Lines wrap at `width` (the terminal's; nil: one line each, for pipes). Paths are
    /// shown relative to `workingDirectory` where they lie under it.
    public static func lines(_ result: ToolMatrix.Result, skipped: [Skipped], matrix: URL, width: Int? = nil,
                             workingDirectory: URL? = nil) -> [String] {
        let column = max(20, (result.cells.map(\.situation) + skipped.map(\.situation)).map(\.count).max() ?? 0)
        func pad(_ text: String) -> String { text.padding(toLength: column, withPad: " ", startingAt: 0) }
        func wrapped(_ text: String, _ hanging: String = "      ") -> [String] {
            FindingText.wrap(text, width: width, indent: "", hanging: hanging)
        }
        func shown(_ path: String) -> String {
            guard let base = workingDirectory?.standardizedFileURL.path, path.hasPrefix(base + "/") else { return path }
            return String(path.dropFirst(base.count + 1))
        }
        var lines: [String] = []
        for cell in result.cells {
            let seeds = cell.runs.count
            if cell.caught {
                let failing = cell.caughtRuns
                let names = cell.violated.isEmpty ? "a step failed" : cell.violated.joined(separator: ", ")
                lines += wrapped("\(pad(cell.situation))  CAUGHT \(names) \(seedCount(failing.count, of: seeds))", pad("") + "  ")
                if cell.violated.isEmpty, let failure = failing.first?.failures.first {
                    lines += wrapped("\(pad(""))    \(FindingText.firstSentence(FindingText.relativePaths(failure)))", pad("") + "      ")
                }
            } else if let reason = cell.notExercised {
                lines += wrapped("\(pad(cell.situation))  not exercised: \(reason)", pad("") + "  ")
            } else if cell.isNotRun {
                lines += wrapped("\(pad(cell.situation))  NOT RUN: \(FindingText.firstSentence(cell.notRunRuns.first?.notRun ?? ""))", pad("") + "  ")
            } else {
                lines.append("\(pad(cell.situation))  held" + (seeds > 1 ? seedCount(seeds, of: seeds) : ""))
            }
        }
        for (situation, reason) in skipped { lines += wrapped("\(pad(situation))  skipped: \(reason)", pad("") + "  ") }

        let program = findings(result, appsOwn: false), apps = findings(result, appsOwn: true)
        if !program.isEmpty {
            lines += ["", "Findings, worst first:"]
            for (index, item) in program.enumerated() {
                let number = "\(index + 1).".padding(toLength: 3, withPad: " ", startingAt: 0)
                lines += item.finding.lines(indent: 3, width: width).enumerated().map { $0.offset == 0 ? number + $0.element.dropFirst(3) : $0.element }
                lines += wrapped("       in \(item.situations)", "           ")
                if let repro = item.repros.first {
                    let more = item.repros.count > 1 ? " (and \(item.repros.count - 1) more beside it, one per situation)" : ""
                    lines += wrapped("       repro: \(shown(matrix.appendingPathComponent(repro).path))\(more)", "           ")
                }
            }
        }
        if !apps.isEmpty {
            lines += ["", "The app's own, not your program's (Core Data's behaviour; not counted against it):"]
            for item in apps {
                lines += item.finding.lines(indent: 3, width: width)
                lines += wrapped("       in \(item.situations)", "           ")
            }
        }
        return lines
    }

    /// Every finding of the result once per invariant (the program's, or the app's own), worst first: the first
    /// run's finding of it (the first with a cause, when one has), the situations and seeds it came back in, and
    /// the repro of each situation's first seed that showed it.
    public static func findings(_ result: ToolMatrix.Result, appsOwn: Bool) -> [(finding: Finding, situations: String, repros: [String])] {
        var order: [String] = []
        var first: [String: Finding] = [:]
        var places: [String: [String]] = [:]
        var repros: [String: [String]] = [:]
        for cell in result.cells {
            let seeds = cell.runs.count
            var counts: [String: Int] = [:]
            for run in cell.runs {
                for finding in run.findings ?? [] where finding.appsOwn == appsOwn {
                    if first[finding.invariant] == nil { order.append(finding.invariant) }
                    if first[finding.invariant] == nil || (first[finding.invariant]?.cause == nil && finding.cause != nil) {
                        first[finding.invariant] = finding
                    }
                    if counts[finding.invariant] == nil, let repro = run.repro { repros[finding.invariant, default: []].append(repro) }
                    counts[finding.invariant, default: 0] += 1
                }
            }
            for (invariant, count) in counts.sorted(by: { $0.key < $1.key }) {
                places[invariant, default: []].append(cell.situation + (seeds > 1 || count < seeds ? seedCount(count, of: seeds) : ""))
            }
        }
        return order.compactMap { name in first[name].map { ($0, places[name, default: []].joined(separator: ", "), repros[name, default: []]) } }
            .enumerated().sorted { a, b in
                a.element.0.severity != b.element.0.severity ? a.element.0.severity < b.element.0.severity : a.offset < b.offset
            }.map(\.element)
    }

    /// " (2/3 seeds)", " (1/1 seed)".
    static func seedCount(_ count: Int, of seeds: Int) -> String { " (\(count)/\(seeds) seed\(seeds == 1 ? "" : "s"))" }

    /// `--save DIR`: the scenario files `try` ran, flattened (no `extends:`), each expecting `pass`, with a copy of
    /// the script each command line names beside them (`ProgramFiles.place`: one in or under `workingDirectory`;
    /// one elsewhere by its absolute path), so `lifeboat run DIR --seeds ...` runs them in CI, from any working
    /// folder, and fails while a finding stands. Nothing else: no script stands in for a restore program that was
    /// not given.
    public static func save(_ recipe: ToolMatrix.Recipe, program: Program, workingDirectory: URL, seed: UInt64,
                            seeds: String = "1-3", to directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let backup = try ProgramFiles.place(program.backup, in: directory, from: workingDirectory)
        let restore = try program.restore.map { try ProgramFiles.place($0, in: directory, from: workingDirectory) }
        var written: [URL] = []
        for situation in recipe.situations {
            var scenario = situation.scenario
            scenario.seed = seed
            scenario.expect = .pass
            for index in scenario.schedule.indices where scenario.schedule[index].command != nil {
                scenario.schedule[index].command = scenario.schedule[index].action == .restore ? restore : backup
            }
            let file = directory.appendingPathComponent("\(scenario.name).yaml")
            let header = "# `lifeboat try` situation \"\(situation.name)\" (the one in Scenarios/tools/_situations), running the program's\n"
                + "# script copied beside this file ($LIFEBOAT_SCENARIO_DIR) or named by its absolute path. Runs from any\n"
                + "# working folder: lifeboat run \(directory.lastPathComponent) --seeds \(seeds). It runs the copy: save again after\n"
                + "# changing the script.\n"
            try Data((header + ScenarioYAML.render(scenario)).utf8).write(to: file)
            written.append(file)
        }
        return written
    }
}
