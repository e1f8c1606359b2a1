import Checks
import FaultVocabulary
import Foundation
import Strategies
import Yams

/// Reads scenario files. Every mistake is a `ScenarioError` at its file, line and column; nothing is guessed.
public enum ScenarioParser {
    /// The invariant names scenario files may use: the judge's registry (Checks/Judge/InvariantRegistry.swift).
    public static var invariantNames: [String] { InvariantRegistry.names }
    /// The operation names `ops:` takes: FaultFS's (`FaultOp`).
    public static var faultOps: [String] { FaultOp.names }
    /// The largest commit or operation count a trigger may name: more than 64 writers x 10,000,000 transactions
    /// can commit, and small enough that no sum or multiple of two of them overflows.
    public static let maximumCommits = 1_000_000_000

    /// Parses the file at `url`, following `extends:` (relative to the file), and checks the whole scenario.
    public static func parse(file url: URL) throws -> Scenario {
        var visiting: [String] = []
        let scenario = try UnknownKeys.gathering { try load(url, visiting: &visiting) }
        guard !scenario.name.isEmpty else {
            throw ScenarioError(file: url.path, line: 1, column: 1, message: "the scenario has no name (add `name: ...`)")
        }
        return scenario
    }

    /// Parses a file meant to be extended, such as a situation (`Scenarios/tools/_situations`), as `parse(file:)`
    /// does, naming the scenario `name` when the file names none.
    public static func parse(file url: URL, defaultName name: String) throws -> Scenario {
        var visiting: [String] = []
        var scenario = try UnknownKeys.gathering { try load(url, visiting: &visiting) }
        if scenario.name.isEmpty { scenario.name = name }
        return scenario
    }

    /// Parses scenario text (for tests and for `repro.yaml` round trips).
    public static func parse(yaml: String, file: String = "<scenario>", base: Scenario? = nil) throws -> Scenario {
        try UnknownKeys.gathering { try parseGathered(yaml: yaml, file: file, base: base) }
    }

    static func parseGathered(yaml: String, file: String, base: Scenario?) throws -> Scenario {
        let root = try compose(yaml, file: file)
        var reader = try NodeReader(root, file: file, context: "scenario")
        if let extends = try reader.string("extends") {
            throw reader.error(reader.node("extends"), "`extends: \(extends)` needs a file; parse the scenario from its file")
        }
        return try apply(&reader, to: base ?? Scenario(name: ""))
    }

    static func load(_ url: URL, visiting: inout [String]) throws -> Scenario {
        let path = url.standardizedFileURL.path
        guard !visiting.contains(path) else {
            throw ScenarioError(file: path, line: 1, column: 1, message: "`extends` loops: \((visiting + [path]).joined(separator: " -> "))")
        }
        visiting.append(path)
        if let problem = notAScenarioFile(path) {
            throw ScenarioError(file: path, line: 1, column: 1, message: "cannot read the scenario file: \(problem)")
        }
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ScenarioError(file: path, line: 1, column: 1, message: "cannot read the scenario file: \(error.localizedDescription)")
        }
        let root = try compose(text, file: path)
        var reader = try NodeReader(root, file: path, context: "scenario")
        var base = Scenario(name: "")
        if let extends = try reader.string("extends") {
            let baseURL = URL(fileURLWithPath: extends, relativeTo: url.deletingLastPathComponent())
            if let problem = notAScenarioFile(baseURL.path) {
                throw reader.error(reader.node("extends"), "`extends` names \(baseURL.path): \(problem)")
            }
            base = try load(baseURL, visiting: &visiting)
        }
        return try apply(&reader, to: base)
    }

    /// Why `path` cannot be a scenario file (it does not exist, or is a directory, a FIFO, a device or a socket),
    /// found with stat(2) alone: reading a FIFO would block the harness forever. Nil for a regular file.
    static func notAScenarioFile(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "it does not exist or cannot be reached (\(String(cString: strerror(errno))))" }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "it is a directory, not a scenario file"
        case S_IFIFO: return "it is a FIFO, not a scenario file (not read)"
        case S_IFSOCK: return "it is a socket, not a scenario file"
        default: return "it is a device, not a scenario file (not read)"
        }
    }

    static func compose(_ text: String, file: String) throws -> Node {
        do {
            guard let root = try Yams.compose(yaml: text) else {
                throw ScenarioError(file: file, line: 1, column: 1, message: "the scenario file is empty")
            }
            return root
        } catch let error as YamlError {
            switch error {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
                throw ScenarioError(file: file, line: mark.line, column: mark.column, message: "YAML: \(problem)")
            default:
                throw ScenarioError(file: file, line: 1, column: 1, message: "YAML: \(error)")
            }
        }
    }

    /// `store.fresh` describes no store at all: nothing is generated or copied, so the keys that say what to
    /// generate or copy contradict it and are refused where they are written (or at `fresh` when they come from
    /// an `extends` base). `objects` left at its default (or a base's) becomes 0; written explicitly it must be 0.
    /// `journal_mode` stays: it is the mode the writers create the store in.
    static func checkFresh(_ spec: inout Scenario.StoreSpec, store: inout NodeReader) throws {
        guard spec.fresh else { return }
        let here = store.keys
        func refuse(_ key: String, _ what: String) -> ScenarioError {
            let node = here.contains(key) ? store.node(key) : store.node("fresh")
            return store.error(node, "store.fresh starts the run with no store file, so it cannot have \(what); " +
                               "drop store.\(key) or store.fresh")
        }
        if spec.from != nil { throw refuse("from", "a store copied from `from`") }
        if spec.history { throw refuse("history", "persistent-history tables (they are made by the generator)") }
        if spec.inheritance { throw refuse("inheritance", "generated objects of an entity hierarchy") }
        if spec.cloudkit { throw refuse("cloudkit", "CloudKit mirroring tables (they are made by the generator)") }
        if spec.freeSpace > 0 { throw refuse("free_space", "free pages added by the generator") }
        if here.contains("objects"), spec.objects != 0 { throw refuse("objects", "\(spec.objects) generated objects") }
        if here.contains("blob_fraction") || here.contains("blob_size") {
            throw refuse(here.contains("blob_fraction") ? "blob_fraction" : "blob_size", "generated attachments (writers.blob_fraction sets the writers' own)")
        }
        // Nothing is generated: the generator's settings take one value, so a rendered scenario reads back equal.
        spec.objects = 0
        spec.blobFraction = 0
        spec.blobSize = Scenario.StoreSpec().blobSize
    }

    /// Overrides `base` with every field the mapping sets.
    static func apply(_ reader: inout NodeReader, to base: Scenario) throws -> Scenario {
        var s = base
        var scheduleNodes: [Node]?
        var ruleNodes: [Node]?
        if let name = try reader.string("name") { s.name = name }
        if let description = try reader.string("description") { s.description = description }
        if let seed = try reader.int("seed") { s.seed = UInt64(seed) }
        if let model = try reader.choice("app_model", ["library", "library-v2", "library-type-change"]) { s.appModel = model }
        if let node = reader.node("lightweight_migration") {
            if case .mapping = node {
                // The two options set apart, as an app may pass only one of them.
                var options = try NodeReader(node, file: reader.file, context: "scenario.lightweight_migration")
                if let v = try options.bool("migrate_automatically") { s.migrateAutomatically = v }
                if let v = try options.bool("infer_mapping_model") { s.inferMappingModel = v }
                try options.finish()
            } else if let lightweight = node.bool {
                s.lightweightMigration = lightweight
            } else {
                throw reader.error(node, "lightweight_migration must be true, false or {migrate_automatically: BOOL, infer_mapping_model: BOOL}, not '\(node.string ?? "?")'")
            }
        }
        if let v = try reader.choice("incompatible_store", ["fail", "move-aside"]) { s.incompatibleStore = v }
        if let limit = try reader.double("time_limit", range: 1...86_400) { s.timeLimit = limit }
        if let scheduler = try reader.choice("scheduler", ["free", "turns"]) { s.scheduler = scheduler }
        if var store = try reader.mapping("store") {
            if let v = try store.int("objects", range: 0...50_000_000) { s.store.objects = v }
            if let v = try store.double("blob_fraction", range: 0...1) { s.store.blobFraction = v }
            if let v = try store.size("blob_size") { s.store.blobSize = v }
            if let v = try store.choice("journal_mode", ["wal", "delete", "truncate"]) { s.store.journalMode = v }
            if let v = try store.choice("auto_vacuum", ["none", "incremental"]) { s.store.autoVacuum = v }
            if let v = try store.bool("history") { s.store.history = v }
            if let v = try store.bool("inheritance") { s.store.inheritance = v }
            if let v = try store.bool("cloudkit") { s.store.cloudkit = v }
            if let v = try store.size("free_space", range: 0...(16 << 30)) { s.store.freeSpace = v }
            if s.store.autoVacuum == "incremental", s.store.freeSpace > 0 {
                // The generator writes its free pages as holes without the pointer-map pages auto-vacuum keeps.
                throw store.error(store.node("auto_vacuum"), "store.auto_vacuum: incremental does not go with free_space (the generator's free pages have no pointer-map pages)")
            }
            if let v = try store.string("from") {
                let url = URL(fileURLWithPath: v, relativeTo: URL(fileURLWithPath: store.file).deletingLastPathComponent()).standardizedFileURL
                var info = stat()
                guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                    throw store.error(store.node("from"), "store.from names \(url.path), which is not a store file")
                }
                s.store.from = url.path
            }
            if let v = try store.bool("fresh") { s.store.fresh = v }
            try checkFresh(&s.store, store: &store)
            try store.finish()
        }
        if var readers = try reader.mapping("readers") {
            var spec = s.readers ?? Scenario.ReaderSpec()
            if let v = try readers.int("count", range: 0...64) { spec.count = v }
            if let v = try readers.double("hold", range: 0...600) { spec.hold = v }
            if let v = try readers.double("every", range: 0...600) { spec.every = v }
            if let v = try readers.choice("across_restore", ["keep", "stop"]) { spec.acrossRestore = v }
            if let v = try readers.choice("across_relocate", ["keep", "stop"]) { spec.acrossRelocate = v }
            try readers.finish()
            s.readers = spec
        }
        if var cloud = try reader.mapping("cloud") {
            var spec = s.cloud ?? Scenario.CloudSpec()
            if let v = try cloud.choice("account", ["available", "unavailable"]) { spec.account = v }
            if let v = try cloud.double("setup_deadline", range: 0.1...3600) { spec.setupDeadline = v }
            if let v = try cloud.string("container") {
                guard !v.isEmpty, !v.contains("/") else { throw cloud.error(cloud.node("container"), "cloud.container must be a plain name (no /), not '\(v)'") }
                spec.container = v
            }
            try cloud.finish()
            s.cloud = spec
        }
        if var writers = try reader.mapping("writers") {
            if let v = try writers.int("count", range: 0...64) { s.writers.count = v }
            if let v = try writers.int("transactions", range: 0...10_000_000) { s.writers.transactions = v }
            if let v = try writers.double("rate", range: 0...100_000) {
                // A rate of 1e-300 would schedule the second transaction 1e300 s later: 0 (as fast as they go)
                // or at least one transaction per 100 s.
                let rateNode = writers.node("rate")
                guard v == 0 || v >= 0.01 else { throw writers.error(rateNode, "scenario.writers.rate must be 0 (as fast as they go) or between 0.01 and 100000, not \(v)") }
                s.writers.rate = v
            }
            if let v = try writers.double("blob_fraction", range: 0...1) { s.writers.blobFraction = v }
            if let v = try writers.size("blob_size") { s.writers.blobSize = v }
            if let v = try writers.choice("synchronous", ["off", "normal", "full", "extra"]) { s.writers.synchronous = v }
            if let v = try writers.choice("checkpoint", ["auto", "none", "frequent", "truncate"]) { s.writers.checkpoint = v }
            if let v = try writers.double("external_data_grace", range: 0...3600) { s.writers.externalDataGrace = v }
            if let v = try writers.bool("sync_external_data") { s.writers.syncExternalData = v }
            if let v = try writers.choice("across_restore", ["keep", "stop"]) { s.writers.acrossRestore = v }
            if let v = try writers.choice("across_relocate", ["keep", "stop"]) { s.writers.acrossRelocate = v }
            // Under `turns` a round a restore begins gets turn FIFOs of its own (TurnsScheduler adopts its writers).
            if let v = try writers.choice("after_restore", ["continue", "stop"]) { s.writers.afterRestore = v }
            if var mix = try writers.mapping("mix") {
                if let v = try mix.int("insert", range: 0...1000) { s.writers.mix.insert = v }
                if let v = try mix.int("update", range: 0...1000) { s.writers.mix.update = v }
                if let v = try mix.int("delete", range: 0...1000) { s.writers.mix.delete = v }
                if let v = try mix.int("link", range: 0...1000) { s.writers.mix.link = v }
                try mix.finish()
                if s.writers.mix.total == 0 { throw mix.error(nil, "writers.mix needs at least one non-zero weight") }
            }
            try writers.finish()
        }
        if s.store.fresh, s.writers.count == 0 {
            // Only a writer's open creates a fresh store: without one the run would have no store at all.
            var writers = try reader.mapping("writers")
            throw reader.error(writers?.node("count") ?? reader.node("store"),
                               "store.fresh starts with no store file, which the first writer's open creates: writers.count must be at least 1")
        }
        if let steps = try reader.sequence("schedule") {
            s.schedule = try steps.enumerated().map { index, node in try step(node, index: index, file: reader.file) }
            scheduleNodes = steps
        }
        if let list = try reader.sequence("sidecars") { s.sidecars = try sidecars(list, file: reader.file) }
        if var faults = try reader.mapping("faults") {
            if let v = try faults.bool("mount") { s.faults.mount = v }
            if let v = try faults.bool("backups_on_volume") { s.faults.backupsOnVolume = v }
            if let node = faults.node("host_sync") {
                // YAML 1.1 reads a bare on/off as a boolean; both spellings mean the same.
                switch node.bool.map({ $0 ? "on" : "off" }) ?? node.string {
                case "on"?: s.faults.hostSync = "on"
                case "off"?: s.faults.hostSync = "off"
                default: throw faults.error(node, "faults.host_sync must be on or off, not '\(node.string ?? "?")'")
                }
            }
            if let node = faults.node("fsync_failure") {
                guard let name = node.string, let semantics = Scenario.FsyncFailure(rawValue: name) else {
                    throw faults.error(node, "faults.fsync_failure must be ext4, xfs or btrfs, not '\(node.string ?? "?")'")
                }
                s.faults.fsyncFailure = semantics
            }
            if let rules = try faults.sequence("rules") {
                s.faults.rules = try rules.enumerated().map { index, node in try rule(node, index: index, file: reader.file, steps: s.schedule.count) }
                ruleNodes = rules
            }
            if var crash = try faults.mapping("crash") {
                var c = Scenario.Crash()
                c.afterCommits = try crash.int("after_commits", range: 1...Self.maximumCommits)
                c.atSeconds = try crash.double("at_seconds")
                c.duringStep = try crash.int("during_step", range: 0...max(0, s.schedule.count - 1))
                let delay = try crash.double("delay", range: 0...600)
                if let delay { c.moment = .delay(delay) }
                let atPage = try crash.int("at_page", range: 1...Int(Int32.max))
                if atPage != nil, c.duringStep == nil { throw crash.error(crash.node("at_page"), "faults.crash.at_page needs during_step (the step whose copy it stops)") }
                if atPage != nil, delay != nil { throw crash.error(crash.node("at_page"), "faults.crash takes at_page or delay, not both") }
                if let atPage { c.moment = .atPage(atPage) }
                if let atEnd = try crash.bool("at_end"), atEnd {
                    if c.duringStep == nil { throw crash.error(crash.node("at_end"), "faults.crash.at_end needs during_step (the step whose end it waits for)") }
                    if delay != nil || atPage != nil { throw crash.error(crash.node("at_end"), "faults.crash takes one of at_end, at_page and delay") }
                    c.moment = .atEnd
                }
                if let mode = try crash.string("mode") {
                    do { c.mode = try CrashMode(text: mode) } catch {
                        throw crash.error(crash.node("mode"), "faults.crash.mode \(error)")
                    }
                }
                if [c.afterCommits != nil, c.atSeconds != nil, c.duringStep != nil].filter({ $0 }).count != 1 {
                    throw crash.error(nil, "faults.crash needs exactly one of after_commits, at_seconds, during_step")
                }
                try crash.finish()
                s.faults.crash = c
            }
            if let node = faults.node("device") { s.faults.device = try device(node, file: reader.file) }
            try faults.finish()
        }
        if let list = try reader.sequence("invariants") {
            s.invariants = try list.map { node in
                guard let name = node.string, name == "all" || invariantNames.contains(name) else {
                    throw reader.error(node, "unknown invariant '\(node.string ?? "?")'; known: \(invariantNames.joined(separator: ", "))")
                }
                return name
            }.filter { $0 != "all" }
        }
        if let list = try reader.sequence("expect_metrics") {
            s.expectMetrics = try metricExpectations(list, file: reader.file, schedule: s.schedule)
            // Bounds the scenario states are judged even where it lists its invariants.
            if !s.expectMetrics.isEmpty, !s.invariants.isEmpty, !s.invariants.contains("metrics-within-bounds") { s.invariants.append("metrics-within-bounds") }
        }
        if let expectNode = reader.node("expect") {
            guard let text = expectNode.string else { throw reader.error(expectNode, "expect must be `pass` or `violation <invariant>`") }
            let words = text.split(separator: " ").map(String.init)
            if words == ["pass"] {
                s.expect = .pass
            } else if words.count == 2, words[0] == "violation",
                      words[1].split(separator: "|", omittingEmptySubsequences: false).allSatisfy({ invariantNames.contains(String($0)) }) {
                s.expect = .violation(words[1])
            } else {
                throw reader.error(expectNode, "expect must be `pass` or `violation <invariant>` (alternatives joined by `|`) with one of \(invariantNames.joined(separator: ", ")), not '\(text)'")
            }
        }
        try reader.finish()
        if let scheduleNodes { try checkRelations(s, nodes: scheduleNodes, file: reader.file) }
        if let ruleNodes {
            for (index, rule) in s.faults.rules.enumerated() where index < ruleNodes.count && rule.whileHeld != nil && s.scheduler != "turns" {
                var r = try NodeReader(ruleNodes[index], file: reader.file, context: "faults.rules[\(index)]")
                throw r.error(r.node("action"), "faults.rules[\(index)]: action hold needs scheduler: turns (the runner gives the writers their turns while the call is held, the same way every run)")
            }
            for (index, rule) in s.faults.rules.enumerated() where index < ruleNodes.count {
                guard let name = rule.whileSidecar, !s.sidecars.contains(where: { $0.name == name }) else { continue }
                var r = try NodeReader(ruleNodes[index], file: reader.file, context: "faults.rules[\(index)]")
                throw r.error(r.node("while_sidecar"), "faults.rules[\(index)].while_sidecar names '\(name)', which is not a sidecar of the scenario")
            }
        }
        return s
    }

    static func rule(_ node: Node, index: Int, file: String, steps: Int) throws -> Scenario.Rule {
        var r = try NodeReader(node, file: file, context: "faults.rules[\(index)]")
        var rule = Scenario.Rule()
        if let opsNode = r.node("ops") {
            let names: [String]
            if case .sequence(let list) = opsNode { names = list.compactMap(\.string) } else { names = opsNode.string.map { [$0] } ?? [] }
            rule.ops = try names.map { name in
                guard let op = FaultOp(rawValue: name) else {
                    throw r.error(opsNode, "unknown operation '\(name)'; known: \(faultOps.joined(separator: ", "))")
                }
                return op
            }
        }
        rule.path = try r.string("path") ?? "*"
        rule.nth = try r.int("nth", range: 1...Self.maximumCommits)
        rule.after = try r.int("after", range: 0...Self.maximumCommits)
        rule.probability = try r.double("probability", range: 0...1)
        rule.duringStep = try r.int("during_step", range: 0...max(0, steps - 1))
        rule.actor = try r.string("actor")
        rule.whileSidecar = try r.string("while_sidecar")
        if rule.actor?.isEmpty == true { throw r.error(r.node("actor"), "faults.rules[\(index)].actor must name a child of the run (writer-1, backup-*, sidecar-NAME)") }
        if rule.isScoped, rule.duringStep != nil {
            throw r.error(r.node("during_step"), "faults.rules[\(index)] takes during_step or actor/while_sidecar, not both (a step's own process is `actor: backup-I` or `restore-I`)")
        }
        if let action = try r.string("action") {
            do { rule.action = try FaultAction(text: action) } catch {
                throw r.error(r.node("action"), "faults.rules[\(index)].action \(error)")
            }
            // What FaultFS would refuse when the rule is armed (an op the action does not act on), refused here at its line.
            if let problem = rule.action.problem(ops: rule.ops) {
                throw r.error(r.node("action"), "faults.rules[\(index)].action '\(action)': \(problem)")
            }
        }
        if let list = try r.sequence("while_held") {
            rule.whileHeld = try list.map { item in
                do { return try HoldWork(text: item.string ?? "?") } catch {
                    throw r.error(item, "faults.rules[\(index)].while_held items are \(HoldWork.syntax), not '\(item.string ?? "?")'")
                }
            }
        }
        let holds: Bool
        if case .hold = rule.action { holds = true } else { holds = false }
        if holds != (rule.whileHeld != nil) {
            throw r.error(r.node("while_held") ?? r.node("action") ?? node, "faults.rules[\(index)]: action hold and while_held go together (what the app does while the call is held)")
        }
        if [rule.nth != nil, rule.after != nil, rule.probability != nil].filter({ $0 }).count > 1 {
            throw r.error(node, "faults.rules[\(index)] takes at most one of nth, after, probability")
        }
        try r.finish()
        return rule
    }
}
