import Foundation
import Strategies
import Yams

/// `backup: STRATEGY` and `restore: STRATEGY`: a copy of the store by a strategy of the catalog, run as a
/// child process (Sources/Runner/Events/CopyStepEvent.swift).
struct CopyStepEntry: ScheduleEntryKind {
    let action: Scenario.Step.Action

    var key: String { action.rawValue }
    var argument: String { "STRATEGY" }
    var keys: [String] {
        ["after_commits", "at_seconds", "after_writers", "after_step", "every_commits", "times", "destination", "pages_per_step", "step_delay",
         "max_restarts", "command", "copy_external_data", "allow_clone", "migrate_existing", "at_time", "coordinator", "saves_after_migrate"]
    }

    func parse(_ r: inout NodeReader, node: Node, index: Int) throws -> Scenario.Step {
        guard let name = try r.string(key) else { throw r.error(node, "schedule[\(index)] needs exactly one of \(ScheduleKinds.choices)") }
        let known = action == .backup ? StrategyCatalog.backups.map(\.name) : StrategyCatalog.restores.map(\.name)
        guard known.contains(name) else {
            throw r.error(r.node(key), "unknown \(key) strategy '\(name)'; known: \(known.joined(separator: ", "))")
        }
        var step = Scenario.Step(action: action, strategy: name)
        step.afterCommits = try r.int("after_commits", range: 0...ScenarioParser.maximumCommits)
        step.atSeconds = try r.double("at_seconds", range: 0...86_400)
        step.afterWriters = try r.bool("after_writers") ?? false
        step.afterStep = try r.int("after_step", range: 0...10_000)
        if step.afterStep == index { throw r.error(r.node("after_step"), "schedule[\(index)].after_step names the entry itself") }
        step.everyCommits = try r.int("every_commits", range: 1...ScenarioParser.maximumCommits)
        step.times = try r.int("times", range: 1...10_000) ?? 1
        step.destination = try r.choice("destination", ["fresh", "reuse"]) ?? "fresh"
        step.pagesPerStep = try r.int("pages_per_step", range: -1...1_000_000)
        if step.pagesPerStep == 0 {
            // sqlite3_backup_step(0) copies nothing: the backup would never progress.
            throw r.error(r.node("pages_per_step"), "schedule[\(index)].pages_per_step must be -1 (all at once) or between 1 and 1000000, not 0")
        }
        step.stepDelay = try r.double("step_delay", range: 0...10)
        step.maxRestarts = try r.int("max_restarts", range: 0...1_000_000)
        step.command = try r.string("command")
        step.copyExternalData = try r.bool("copy_external_data")
        step.allowClone = try r.bool("allow_clone")
        step.migrateExisting = try r.choice("migrate_existing", ["append", "overwrite"])
        step.atTime = try r.double("at_time", range: 0...86_400)
        var copy = Scenario.Copy()
        if let coordinator = try r.choice("coordinator", Scenario.Copy.Coordinator.self) {
            // `app`: migratePersistentStore on the app's own coordinator (Runner/Events/InAppMigrateStep.swift).
            guard action == .backup, name == "migrate" else {
                throw r.error(r.node("coordinator") ?? node, "schedule[\(index)].coordinator is for `backup: migrate` (whose coordinator migrates the store), not `\(key): \(name)`")
            }
            copy.coordinator = coordinator
        }
        if let saves = try r.choice("saves_after_migrate", Scenario.Copy.SavesAfterMigrate.self) {
            // `fail`: the app removes the copy from its coordinator after migrating (InAppMigrate.swift), which then
            // holds no store, so its later saves fail.
            guard copy.coordinator == .app else {
                throw r.error(r.node("saves_after_migrate") ?? node, "schedule[\(index)].saves_after_migrate is for `backup: migrate` with `coordinator: app` (the app's own coordinator)")
            }
            copy.savesAfterMigrate = saves
        }
        // A copy whose keys are all defaults has no details, as a step built in code has none.
        if copy != Scenario.Copy() { step.details = .copy(copy) }
        if step.atTime != nil, action != .restore {
            throw r.error(r.node("at_time"), "schedule[\(index)].at_time is for restores (the moment to restore to)")
        }
        // `after_step` with `after_writers: true` counts as one trigger (ScheduleTriggers): once that entry has
        // finished and the writers running then have exited.
        let triggers = [step.afterCommits != nil, step.atSeconds != nil, step.afterWriters, step.afterStep != nil].filter { $0 }.count
            - (step.afterStep != nil && step.afterWriters ? 1 : 0)
        if triggers > 1 { throw r.error(node, "schedule[\(index)] takes one of after_commits, at_seconds, after_writers, after_step (after_writers may go with after_step)") }
        if triggers == 0 {
            if step.action == .restore { step.afterWriters = true } else { step.afterCommits = 0 }
        }
        if step.strategy == "command", step.command == nil {
            throw r.error(node, "schedule[\(index)] uses the command strategy but gives no `command:`")
        }
        if step.action == .restore, step.times != 1 || step.everyCommits != nil {
            throw r.error(node, "schedule[\(index)]: a restore runs once (no times or every_commits)")
        }
        return step
    }

    /// `coordinator: app` asks a writer (the app) to migrate on its own coordinator between two transactions.
    func problem(_ step: Scenario.Step, index: Int, in scenario: Scenario) -> (key: String, message: String)? {
        guard step.copy.coordinator == .app else { return nil }
        if scenario.scheduler == "turns" {
            return ("coordinator", "schedule[\(index)]: coordinator: app needs the free scheduler (the app migrates between its own transactions)")
        }
        if scenario.writers.count == 0 {
            return ("coordinator", "schedule[\(index)]: coordinator: app needs a writer, the app whose coordinator migrates its store")
        }
        return nil
    }

    func render(_ step: Scenario.Step) -> [String] {
        // The triggers a copy takes are among the common ones (it has no during_step or delay).
        var out = ScheduleTriggers.render(step)
        if let v = step.everyCommits { out.append("    every_commits: \(v)") }
        if step.times != 1 { out.append("    times: \(step.times)") }
        if step.action == .backup { out.append("    destination: \(step.destination)") }
        if let v = step.pagesPerStep { out.append("    pages_per_step: \(v)") }
        if let v = step.stepDelay { out.append("    step_delay: \(v)") }
        if let v = step.maxRestarts { out.append("    max_restarts: \(v)") }
        if let v = step.command { out.append("    command: \(ScenarioYAML.quote(v))") }
        if let v = step.copyExternalData { out.append("    copy_external_data: \(v)") }
        if let v = step.allowClone { out.append("    allow_clone: \(v)") }
        if let v = step.migrateExisting { out.append("    migrate_existing: \(v)") }
        if let v = step.atTime { out.append("    at_time: \(v)") }
        // Each only when not its default, as the file's `coordinator: own` and `saves_after_migrate: go-to-copy`
        // were never written back.
        if step.copy.coordinator != Scenario.Copy().coordinator { out.append("    coordinator: \(step.copy.coordinator.rawValue)") }
        if step.copy.savesAfterMigrate != Scenario.Copy().savesAfterMigrate {
            out.append("    saves_after_migrate: \(step.copy.savesAfterMigrate.rawValue)")
        }
        return out
    }
}

extension Scenario {
    /// A backup's or restore's keys beyond the strategy settings it keeps on `Step`: on whose coordinator a
    /// `backup: migrate` runs, and what the app's saves do afterwards.
    public struct Copy: Sendable, Equatable, Codable {
        /// `coordinator:`: the migrate's own coordinator in a child (`own`, the default), or the app's
        /// (`app`, run by a writer between two of its transactions).
        public enum Coordinator: String, Sendable, CaseIterable, Codable {
            case own
            case app
        }

        /// `saves_after_migrate:` (with `coordinator: app`): the app's later saves go to the copy its coordinator
        /// now holds (`go-to-copy`, the default), or fail, the copy removed from the coordinator (`fail`).
        public enum SavesAfterMigrate: String, Sendable, CaseIterable, Codable {
            case goToCopy = "go-to-copy"
            case fail
        }

        public var coordinator = Coordinator.own
        public var savesAfterMigrate = SavesAfterMigrate.goToCopy
        public init() {}
    }
}

extension Scenario.Step {
    /// The coordinator keys of a backup or restore (their defaults for a step without them, and for any other
    /// kind).
    public var copy: Scenario.Copy {
        if case .copy(let copy) = details { copy } else { Scenario.Copy() }
    }
}
