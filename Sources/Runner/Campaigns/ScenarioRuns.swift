import Foundation
import Reporting
import Scenario

/// One scenario run, from outside the engine: the one place a `ScenarioRunner` is made. Every command and
/// every many-runs loop (`RunLoop`) starts runs here, so what a run is (its settings, its report folder, its
/// scratch) is decided once.
public enum ScenarioRuns {
    /// What one run left: its result (a pure function of its record), its report folder, and its scratch
    /// folder when the settings keep it (`keepScratch`: the op log a deep search or crash-state enumeration reads).
    public struct Outcome: Sendable {
        public var result: RunResult
        public var directory: RunDirectory
        public var scratch: URL?
    }

    /// Runs `scenario` (read from `file`) once with `settings`. Throws when the run cannot be set up (no
    /// lifeboat executable beside this one, a report folder that cannot be made), never for what it finds.
    public static func run(_ scenario: Scenario, file: String, settings: ScenarioRunner.Settings) throws -> Outcome {
        let runner = try ScenarioRunner(scenario: scenario, file: file, settings: settings)
        let (result, directory) = try runner.run()
        return Outcome(result: result, directory: directory, scratch: runner.scratchDirectory)
    }
}
