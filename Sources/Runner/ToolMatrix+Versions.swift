import Foundation
import Scenario

/// `lifeboat matrix --versions`: every version a recipe pins (`_versions.yaml`, `ToolVersions`) runs as a row of
/// its own, `recipe@version`, and the table says in which version a finding appears or goes away.
///
/// A row's scenarios run their commands with `LIFEBOAT_TOOL_VERSION=<version>` in front (visible in the run's
/// scenario and in its repro file, so `lifeboat replay` runs the same version); the recipes' `_lib.sh` turns it
/// into that version's `.venv/tools/<package>-<version>/bin` first on PATH, and stops with the shell's "not
/// found" status when that folder is missing: an environment error (the row is "not run", exit 2), never a
/// finding.
extension ToolMatrix {
    /// The variable a pinned row's commands get; `Scenarios/tools/_lib.sh` reads it.
    public static let versionVariable = "LIFEBOAT_TOOL_VERSION"

    /// Each recipe that pins versions becomes one recipe per version (in the file's order); the others stay.
    public static func expandingVersions(_ recipes: [Recipe]) -> [Recipe] {
        recipes.flatMap { recipe -> [Recipe] in
            guard let versions = recipe.versions, recipe.pinned == nil else { return [recipe] }
            return versions.versions.map { version in
                var row = recipe
                row.pinned = version
                row.situations = recipe.situations.map { situation in
                    (situation.name, situation.file, pinning(situation.scenario, version: version), situation.measured)
                }
                return row
            }
        }
    }

    /// The scenario with every command (steps and sidecars) run under `LIFEBOAT_TOOL_VERSION=version`.
    public static func pinning(_ scenario: Scenario, version: String) -> Scenario {
        var copy = scenario
        let prefix = "\(versionVariable)=\(version) "
        for index in copy.schedule.indices {
            copy.schedule[index].command = copy.schedule[index].command.map { $0.hasPrefix(prefix) ? $0 : prefix + $0 }
        }
        for index in copy.sidecars.indices where !copy.sidecars[index].command.hasPrefix(prefix) {
            copy.sidecars[index].command = prefix + copy.sidecars[index].command
        }
        copy.name = "\(scenario.name)@\(version)"
        return copy
    }

    /// One version's outcome in one situation.
    public struct VersionOutcome: Sendable, Codable, Equatable {
        public var version: String
        public var outcome: String
        public init(version: String, outcome: String) {
            self.version = version
            self.outcome = outcome
        }
    }

    /// One recipe in one situation across its pinned versions, where the outcome is not the same in all.
    public struct VersionChange: Sendable, Codable, Equatable {
        public var tool: String
        public var situation: String
        /// Each version's outcome, in the recipe's order: `held`, `not run`, or the invariants caught (and
        /// `step failed`).
        public var outcomes: [VersionOutcome]

        public init(tool: String, situation: String, outcomes: [VersionOutcome]) {
            self.tool = tool
            self.situation = situation
            self.outcomes = outcomes
        }

        /// "held in 0.3.13; caught wal-content-carried in 0.5.5 to 0.5.9; held from 0.5.10": consecutive versions
        /// with the same outcome in one phrase.
        public var text: String {
            var runs: [(first: String, last: String, outcome: String)] = []
            for (version, outcome) in outcomes.map({ ($0.version, $0.outcome) }) {
                if let last = runs.last, last.outcome == outcome {
                    runs[runs.count - 1].last = version
                } else {
                    runs.append((version, version, outcome))
                }
            }
            return runs.enumerated().map { index, run in
                let versions = run.first == run.last ? "in \(run.first)"
                    : index == runs.count - 1 ? "from \(run.first) to \(run.last)" : "in \(run.first) to \(run.last)"
                return "\(run.outcome) \(versions)"
            }.joined(separator: "; ")
        }
    }

    /// What a cell found, for comparing versions: the kind of result, and for a caught cell what was caught (not
    /// in how many seeds: a finding appears or goes away, a rate is not a change of version).
    public static func outcome(of cell: Cell) -> String {
        if cell.notExercised != nil { return "not exercised" }
        if cell.held { return "held" }
        if cell.isNotRun { return "not run" }
        var names = cell.violated
        if cell.caughtRuns.contains(where: { !$0.failures.isEmpty }) { names.append("step failed") }
        return "caught " + names.joined(separator: ", ")
    }

    /// Every recipe and situation whose outcome differs between the recipe's pinned versions in `result`. Only
    /// versions that ran count: a version not installed judged nothing, so it neither makes nor hides a change.
    public static func versionChanges(_ result: Result) -> [VersionChange] {
        var tools: [String] = []
        for info in result.tools { if let tool = info.tool, !tools.contains(tool) { tools.append(tool) } }
        var changes: [VersionChange] = []
        for tool in tools {
            let rows = result.tools.filter { $0.tool == tool }
            guard rows.count > 1 else { continue }
            for situation in result.situations {
                let outcomes: [VersionOutcome] = rows.compactMap { row in
                    guard let version = row.pinned, let cell = result.cells.first(where: { $0.recipe == row.recipe && $0.situation == situation }),
                          !cell.isNotRun else { return nil }
                    return VersionOutcome(version: version, outcome: outcome(of: cell))
                }
                if Set(outcomes.map(\.outcome)).count > 1 { changes.append(VersionChange(tool: tool, situation: situation, outcomes: outcomes)) }
            }
        }
        return changes
    }

    /// For a pinned row's cell: the version before it that ran (same recipe, same situation) when that one's
    /// outcome differs, for the table's "changed since" mark; nil otherwise.
    public static func changedSince(_ cell: Cell, in result: Result) -> String? {
        guard !cell.isNotRun, let index = result.tools.firstIndex(where: { $0.recipe == cell.recipe }),
              let tool = result.tools[index].tool else { return nil }
        for previous in result.tools[..<index].reversed() where previous.tool == tool {
            guard let before = result.cells.first(where: { $0.recipe == previous.recipe && $0.situation == cell.situation }),
                  !before.isNotRun else { continue }
            return outcome(of: before) == outcome(of: cell) ? nil : previous.pinned
        }
        return nil
    }
}
