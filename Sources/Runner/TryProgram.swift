import Foundation
import Scenario

/// `lifeboat try`: a user's backup (and restore) program, run unchanged through the standard situations
/// (`Situations`), as a recipe of the matrix made on the spot: the program's command lines become the recipe's
/// `backup.sh` and `restore.sh`, and every situation runs with them, so `try` and `lifeboat matrix` judge a
/// program in exactly the same scenarios.
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

    /// Writes the situations under `root` and the program's recipe (`root/tools/program/`), and returns the
    /// recipe fitted to the program: without a restore program the restore steps go, and a situation about a
    /// restore is skipped; with a store of the user's, every run starts from a copy of it.
    public static func recipe(for program: Program, at root: URL, only: [String]? = nil) throws -> (recipe: ToolMatrix.Recipe, tools: URL, skipped: [Skipped]) {
        let tools = try Situations.materialize(at: root)
        let folder = tools.appendingPathComponent(recipeName)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try writeScripts(program, to: folder)
        guard var recipe = try ToolMatrix.discover(tools).first(where: { $0.tool == recipeName }) else {
            throw ToolMatrix.MatrixError.badInput("no situations in this build")
        }
        var skipped: [Skipped] = []
        if let only {
            let known = recipe.situations.map(\.name)
            for name in only where !known.contains(name) {
                throw ToolMatrix.MatrixError.badInput("--situations: no situation named \(name) (have \(known.joined(separator: ", ")))")
            }
            recipe.situations.removeAll { !only.contains($0.name) }
        }
        recipe.situations = recipe.situations.compactMap { situation in
            var situation = situation
            var scenario = situation.scenario
            scenario.name = "try-\(situation.name)"
            scenario.description = "\(situation.name): `lifeboat try` of \(program.backup)" + (program.restore.map { " and \($0)" } ?? "")
            if program.restore == nil {
                if let step = scenario.faults.crash?.duringStep, scenario.schedule.indices.contains(step), scenario.schedule[step].action == .restore {
                    skipped.append((situation.name, "a crash around the restore: give --restore to try it"))
                    return nil
                }
                scenario.schedule.removeAll { $0.action == .restore }
            }
            if let store = program.store { scenario.store.from = store.standardizedFileURL.path }
            situation.scenario = scenario
            return situation
        }
        for pending in Situations.pending where only == nil && !recipe.situations.contains(where: { $0.name == pending.name }) {
            skipped.append((pending.name, pending.reason))
        }
        return (recipe, tools, skipped)
    }

    static func writeScripts(_ program: Program, to folder: URL) throws {
        func script(_ what: String, _ command: String) -> String {
            "#!/bin/sh\n# The \(what) program under test, run unchanged by `lifeboat try` (from the directory lifeboat ran in).\n\(command)\n"
        }
        try Data(script("backup", program.backup).utf8).write(to: folder.appendingPathComponent("backup.sh"))
        try Data(script("restore", program.restore ?? "echo 'no restore program was given to lifeboat try' >&2; exit 1").utf8)
            .write(to: folder.appendingPathComponent("restore.sh"))
        try Data(("`\(program.backup)`" + (program.restore.map { ", restored with `\($0)`" } ?? "") + "\n").utf8)
            .write(to: folder.appendingPathComponent("recipe.md"))
    }

    /// One line per situation: held, the invariant and its cause in one sentence (with the repro file), or
    /// not run with the reason; then the situations left out.
    public static func lines(_ result: ToolMatrix.Result, skipped: [Skipped], matrix: URL) -> [String] {
        let width = max(20, (result.cells.map(\.situation) + skipped.map(\.situation)).map(\.count).max() ?? 0)
        func pad(_ text: String) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        var lines: [String] = []
        for cell in result.cells {
            let seeds = cell.runs.count
            if cell.caught {
                let failing = cell.caughtRuns
                let cause = failing.first.flatMap { $0.evidence.first ?? $0.failures.first } ?? "a step failed"
                let names = cell.violated.isEmpty ? "a step failed" : cell.violated.joined(separator: ", ")
                lines.append("\(pad(cell.situation))  CAUGHT \(names) (\(failing.count)/\(seeds) seed(s)): \(sentence(cause))")
                for run in failing { if let repro = run.repro { lines.append("\(pad(""))    repro: \(matrix.appendingPathComponent(repro).path)") } }
            } else if cell.isNotRun {
                lines.append("\(pad(cell.situation))  NOT RUN: \(sentence(cell.notRunRuns.first?.notRun ?? ""))")
            } else {
                lines.append("\(pad(cell.situation))  held" + (seeds > 1 ? " (\(seeds)/\(seeds) seeds)" : ""))
            }
            // What the app itself lost (Core Data's behaviour), apart: the program neither caused nor can prevent it.
            let apps = cell.runs.filter { $0.appsOwn != nil }
            if let first = apps.first?.appsOwn?.first {
                lines.append("\(pad(""))    the app's own, not your program's (\(apps.count)/\(seeds) seed(s)): \(sentence(first))")
            }
        }
        for (situation, reason) in skipped { lines.append("\(pad(situation))  skipped: \(reason)") }
        return lines
    }

    /// The first clause of `text` (up to ". " or "; "), on one line, at most about 200 characters.
    static func sentence(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        let end = [flat.range(of: ". ")?.lowerBound, flat.range(of: "; ")?.lowerBound].compactMap { $0 }.min() ?? flat.endIndex
        let first = String(flat[..<end])
        return first.count > 200 ? String(first.prefix(197)) + "..." : first
    }

    /// `--save DIR`: the scenario files `try` ran, flattened (no `extends:`), each expecting `pass`, beside the
    /// program's scripts, so `lifeboat run DIR --seeds ...` runs them in CI and fails while a finding stands.
    public static func save(_ recipe: ToolMatrix.Recipe, seed: UInt64, to directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for script in ["backup.sh", "restore.sh"] {
            let target = directory.appendingPathComponent(script)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.copyItem(at: recipe.directory.appendingPathComponent(script), to: target)
        }
        var written: [URL] = []
        for situation in recipe.situations {
            var scenario = situation.scenario
            scenario.seed = seed
            scenario.expect = .pass
            let file = directory.appendingPathComponent("\(scenario.name).yaml")
            let header = "# `lifeboat try` situation \"\(situation.name)\" (the one in Scenarios/tools/_situations), with the program in\n"
                + "# backup.sh and restore.sh beside this file. Run from the directory lifeboat try ran in: lifeboat run \(directory.lastPathComponent) --seeds 1-3\n"
            try Data((header + ScenarioYAML.render(scenario)).utf8).write(to: file)
            written.append(file)
        }
        return written
    }
}
