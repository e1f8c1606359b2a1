import Checks
import FaultVocabulary
import Foundation
import Reporting
import Runner
import Scenario

/// `lifeboat try --deep`: searches a user's backup (and restore) program over its own operations with the fault
/// walk (`FaultWalk`), instead of one crash moment per situation. Each program gets a base on FaultFS under the
/// `turns` scheduler (one writer commits one transaction at a time; a command runs between turns, so the
/// program's calls come in the same order in every run and N names the same call each time):
/// - the backup: a first backup after 10 commits, the second (the one searched) after 20, on the volume
///   (`backups_on_volume`); the first backup is the previous good one, which `backup-durable` holds to whatever
///   happens to the second;
/// - the restore: a backup after 10 commits, the restore (searched) after 20, over the app killed with its -wal in
///   place, then the app relaunched on the restored store (`restoreBase`); its points after the swap are counted
///   apart (`DeepSearch+AfterSwap.swift`).
/// A probe run counts the program's own calls of each kind (a `delay 0` rule per kind, scoped to the program's
/// child with `actor`, fires on every such call), which sizes each walk; then every walk arms one more rule at the
/// program's Nth call: a crash right after it in each crash mode (the states the crash model allows there:
/// nothing pending kept, pending operations reordered, the last write torn), EIO, ENOSPC, a short write, an fsync
/// that drops the file's data. Last, a crash right after the program reports success, in each mode. The existing
/// invariants judge each run (a program that reports failure when its call fails is right: `backup-completes` is
/// excused in the fault walks); each walk stops at its first failing N (the walk goes in order, so that is the
/// first failing point of that operation), whose repro `lifeboat replay` replays. The write walks are grouped:
/// they try the first and the last write of each run of writes to one file (`DeepSearch+Groups.swift`), which the
/// probe's op log names. The interleavings hold the backup's Nth open of a store file (`action: hold`) while the
/// app commits, checkpoints in one mode and commits again (`while_held`); under `turns` nothing else commits while
/// a program runs, so the interleaving is the same in every run and in its repro.
public struct DeepSearch {
    /// One program searched: `backup` or `restore`, its base scenario, and the child whose calls count.
    public struct Target: Sendable {
        public var program: String
        public var actor: String
        /// The program's step in the base's schedule.
        public var step: Int
        public var base: Scenario
        /// The live store's files on the volume ("/Library.sqlite*"): the program's opens of them are counted,
        /// and an interleaving target holds them.
        public var storeGlob: String
        /// An interleaving target: the program's open of a store file is held while the app does `work`
        /// (`while_held`: commits, a checkpoint), instead of the crash and fault walks.
        public var work: [HoldWork]?
        /// Whether this is an interleaving target.
        public var interleaving: Bool { work != nil }
        /// The program's command line, as its step runs it.
        public var command: String? { base.schedule.indices.contains(step) ? base.schedule[step].command : nil }
    }

    /// One walk of the plan: over which of the program's calls, with what at the Nth, and how many Ns there are.
    public struct Walk: Sendable, Codable, Equatable {
        public var program: String
        public var ops: [FaultOp]
        public var action: FaultAction
        public var count: Int
        public var path = "*"
        /// The Ns tried when the walk is grouped (the first and last write of each run of writes to one file,
        /// `DeepSearch+Groups.swift`); nil tries 1...count.
        public var only: [Int]?
        /// The program's calls the walk stands for: `count` plus the writes grouped away.
        public var calls: Int?
        /// An interleaving's `while_held`: what the app does while the call is held.
        public var whileHeld: [HoldWork]?
        /// A restore's Ns that come after its swap (`DeepSearch+AfterSwap.swift`); nil for a backup, or when the
        /// probe's op log could not say.
        public var afterSwap: [Int]?
        /// "backup: crash keep-none after fsync,fsyncdir,rename,unlink".
        public var label: String {
            if let work = whileHeld { return "\(program): its \(ops.text) of the store held while the app does \(work.map(\.description).joined(separator: ", "))" }
            return "\(program): \(action) " + (ops.isEmpty ? "after it reported success" : "at " + ops.text)
        }
        /// The walk's folder name: "backup-crash-keep-none-fsync-fsyncdir-rename-unlink".
        public var folder: String {
            ([program, action.description.replacingOccurrences(of: " ", with: "-")] + (ops.isEmpty ? ["after-success"] : ops.map(\.rawValue))).joined(separator: "-")
        }
    }

    /// A walk's first failing N: the program's call, what went wrong, and the scenario that replays it.
    public struct Finding: Sendable, Codable, Equatable {
        public var walk: String
        public var n: Int
        /// The program's interrupted call ("rename /backups/.../Library.sqlite.tmp by backup-1 (python3)").
        public var operation: String
        public var violated: [String]
        public var evidence: [String]
        public var cause: String?
        public var repro: String?
        /// The known root cause the op log shows behind it (`DeepSearch+RootCauses.swift`): "sqlite-delete-journal",
        /// "never-syncs", "rename-no-folder-fsync"; nil when none explains it.
        public var rootCause: String?
        /// What shrinking did to its repro (`DeepSearch+Shrink.swift`); nil when it was not shrunk (`--shrink-runs 0`,
        /// or a summary written before shrinking).
        public var shrink: Shrink?
        /// Whether the call comes after the restore's swap (`DeepSearch+AfterSwap.swift`); nil: not a restore's, or
        /// before it.
        public var afterSwap: Bool?
    }

    public struct Summary: Sendable, Codable {
        public var schema = "lifeboat.deep/1"
        /// The program's own calls of each kind, from the probe run, per program.
        public var calls: [String: [String: Int]] = [:]
        public var walks: [Walk] = []
        public var findings: [Finding] = []
        /// Ns run and Ns planned (the sum of every walk's count).
        public var covered = 0
        public var total = 0
        /// Points left out because another write of the same run stands for them (grouping), over every walk.
        public var grouped = 0
        public var runs = 0
        public var seconds = 0.0
        /// Why the search stopped short (the budget, an interruption, a run that could not start); nil when complete.
        public var incomplete: String?
        /// The plan (every walk, by folder) and which shard this folder searched (`--shard`), for `lifeboat report
        /// merge`; and each walk this folder searched to its end, with what it found (`DeepSearch+Shards.swift`).
        public var plan: ShardPlan?
        public var searched: [Searched]?
        /// The points where the program never returned: each stopped at `pointSeconds`, named with the call the
        /// fault fired on and what the program did after it (`evidence`), and the search went on. Optional, as the
        /// two below, so a summary written before them still reads (nil there: read as none).
        public var hung: [Finding]? = []
        /// The time each point's run was given, per program (`pointLimit`): past it, the point is hung.
        public var pointSeconds: [String: Double]? = [:]
        /// The findings grouped under their known root causes, each with its standard fix.
        public var rootCauses: [RootCause]? = []
        /// Per program, each kind of call it made and each answer a file system can give it: met, faulted, not
        /// tried or unreachable (`DeepSearch+IOCoverage.swift`).
        public var ioCoverage: [String: [IOCell]]? = [:]
        /// Per restore program, its swap, the points after it and what they found (`DeepSearch+AfterSwap.swift`).
        public var afterSwap: [String: AfterSwap]? = [:]
    }

    /// The kinds of call the probe counts, and the walks made of them: crash right after each persistence point
    /// (fsync, directory fsync, rename, unlink, rmdir) in each crash mode; EIO at each write (or `copy_file_range`, what
    /// cp uses), fsync and rename, at each unlink and rmdir (a restore's removal of the old store's -wal and -shm
    /// and its cleanup come after its swap, where an ignored failure leaves a stale -wal the app's next open
    /// replays: walked with the persistence points, not last), and at each close (`flush`: one per close(2) of each descriptor of a file, its
    /// bytes left as they were, docs/faultfs.md; a program that ignores the error or stops on it holds, one that
    /// then deletes or changes what it was given does not); an fsync that fails
    /// and drops the file's unsynced data (Linux's behaviour after a failed writeback: `fsync-fail-clean`, docs/faultfs.md), so a program that ignores the error
    /// and reports success leaves a backup that differs; ENOSPC and a short write at each write. The cheap, short walks come
    /// first, so a budget cuts the long write walks, not the persistence points.
    public static let probedOps: [FaultOp] = [.write, .copyFileRange, .fsync, .fsyncdir, .rename, .unlink, .rmdir, .open, .flush]
    static let walkShapes: [(ops: [FaultOp], action: FaultAction)] = [
        ([.fsync, .fsyncdir, .rename, .unlink, .rmdir], .crash(.keepNone)),
        ([.fsync, .fsyncdir, .rename, .unlink, .rmdir], .crash(.reorder)),
        ([.fsync, .fsyncdir, .rename], .crash(.torn(fill: .zeros))),
        ([.fsync, .fsyncdir, .rename], .errno(.EIO)),
        ([.unlink, .rmdir], .errno(.EIO)),
        ([.fsync], .fsyncFailClean),
        ([.flush], .errno(.EIO)),
        ([.write, .copyFileRange], .errno(.EIO)),
        ([.write, .copyFileRange], .errno(.ENOSPC)),
        ([.write], .shortWrite(1)),
    ]
    /// Walks that give the other answers a local file system can give those calls (the input/output coverage
    /// table, `DeepSearch+IOCoverage.swift`): ENOSPC and EDQUOT at each fsync (delayed
    /// allocation reports a full disk there), EDQUOT and EROFS at each write, EROFS at each rename, unlink and rmdir. They come after every
    /// walk above whatever their length, so a budget cuts them first.
    static let fillingShapes: [(ops: [FaultOp], action: FaultAction)] = [
        ([.fsync], .errno(.ENOSPC)),
        ([.fsync], .errno(.EDQUOT)),
        ([.rename, .unlink, .rmdir], .errno(.EROFS)),
        ([.write, .copyFileRange], .errno(.EDQUOT)),
        ([.write, .copyFileRange], .errno(.EROFS)),
    ]

    let file: String
    let directory: URL
    let settings: ScenarioRunner.Settings
    let targets: [Target]
    /// The least time a point's run is given before it counts as hung (`pointLimit`).
    let minimumPointSeconds: Double
    /// Candidate runs each finding's repro is shrunk with once the search is done (0: not shrunk).
    let shrinkRuns: Int

    /// - Parameters: `situation` the try recipe's idle situation (the program's command lines in its steps);
    ///   `directory` where the probe, the walks, their repros and `deep.json`/`deep.md` go.
    ///   `minimumPointSeconds` the least time each point's run is given before the point counts as hung;
    ///   `shrinkRuns` the candidate runs each finding's repro is shrunk with (`DeepSearch+Shrink.swift`).
    public init(situation: Scenario, file: String, directory: URL, settings: ScenarioRunner.Settings,
                minimumPointSeconds: Double = DeepSearch.minimumPointSeconds, shrinkRuns: Int = DeepSearch.defaultShrinkRuns) {
        self.minimumPointSeconds = minimumPointSeconds
        self.shrinkRuns = shrinkRuns
        var common = situation
        common.name = situation.name.replacingOccurrences(of: "-idle", with: "") + "-deep"
        common.expect = .pass
        common.faults.mount = true
        common.faults.backupsOnVolume = true
        common.faults.crash = nil
        common.faults.rules = []
        common.scheduler = "turns"
        common.writers.count = 1
        common.writers.transactions = 30
        // Paced (1.5 s for the 30), so that under the free scheduler (the crash after success) the writer is still
        // committing after the first backup and the store a restore replaces differs from the backup it is given.
        common.writers.rate = 20
        common.writers.blobFraction = 0
        common.writers.checkpoint = "none"
        var targets: [Target] = []
        if var backup = situation.schedule.first(where: { $0.action == .backup }) {
            let restore = situation.schedule.first { $0.action == .restore }
            backup.afterCommits = 10
            var second = backup
            second.afterCommits = 20
            var base = common
            base.name += "-backup"
            base.description = "`lifeboat try --deep` of the backup \(backup.command ?? "")"
            // No restore here: the backup's own checks judge it, and the restore has a base of its own.
            base.schedule = [backup, second]
            let glob = "/" + (situation.store.from.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "Library.sqlite") + "*"
            targets.append(Target(program: "backup", actor: "backup-1", step: 1, base: base, storeGlob: glob))
            // The interleavings: under `turns` the writer commits only when the runner says, so each of the
            // program's opens of the store's files is held while the app does exactly `work`, the same in every run.
            for (name, work) in Self.interleavings {
                var interleaved = common
                interleaved.name += "-backup-\(name)"
                interleaved.description = "`lifeboat try --deep` of the backup \(backup.command ?? "") with the app's \(work.map(\.description).joined(separator: ", ")) at one of its opens of the store"
                // Enough transactions for the work at every open of the store a program makes.
                interleaved.writers.transactions = 120
                interleaved.writers.rate = 0
                // One backup only: the one held, so a finding is about that interleaving, not a race of another.
                interleaved.schedule = [second]
                targets.append(Target(program: "backup+\(name)", actor: "backup-0", step: 0, base: interleaved,
                                      storeGlob: glob, work: work))
            }
            if var restore {
                targets.append(Target(program: "restore", actor: "restore-1", step: 1, base: Self.restoreBase(common, backup: backup, restore: &restore),
                                      storeGlob: glob))
            }
        }
        self.file = file
        self.directory = directory
        self.settings = settings
        self.targets = targets
    }

    /// The restore's base: the app killed while it still runs, then the restore, then the app again.
    /// - The writer commits 20 of its transactions with no checkpoint and is killed (SIGKILL, `across_restore:
    ///   stop`) when the restore comes, between two of its turns: its -wal and -shm stay beside the database, the
    ///   -wal holding 10 commits the backup (taken after 10) does not have, as a crashed or force-quit app leaves
    ///   them (the restore-over-killed-app situation). A restore must remove them, or restore through SQLite, and
    ///   its calls after the swap (that removal, its cleanup, its last folder fsync) are then real calls to walk.
    /// - After the restore the app is relaunched on the restored store (`after_restore: continue`): a round of
    ///   writers opens it, so SQLite replays whatever -wal it finds there, and commits under `turns`, the same in
    ///   every run. `no-duplicates`, `restore-equals-backup` and `live-store-unaffected` (every invariant of the
    ///   situation) then judge what the app found and did, at every point of the walk.
    static func restoreBase(_ common: Scenario, backup: Scenario.Step, restore: inout Scenario.Step) -> Scenario {
        var base = common
        base.name += "-restore"
        base.description = "`lifeboat try --deep` of the restore \(restore.command ?? ""): over an app killed with its -wal in place, which is relaunched on the restored store"
        restore.afterWriters = false
        restore.afterCommits = restoreAfterCommits
        // One turn more than the restore waits for, so the writer still runs (waiting for its turn) when it comes.
        base.writers.transactions = restoreAfterCommits + 1
        base.writers.acrossRestore = "stop"
        base.writers.afterRestore = "continue"
        base.schedule = [backup, restore]
        return base
    }
    /// The commits the restore's base makes before its restore (the backup is taken after 10).
    static let restoreAfterCommits = 20

    /// The least time a point's run is given, and how many times its probe's time it is given when that is more.
    public static let minimumPointSeconds = 60.0
    static let probeTimesPerPoint = 6.0

    /// The time each point's run of a target is given (its scenario's `time_limit`): six times its probe's (the
    /// same program, the same base, no fault) and at least `minimum`, never more than the situation's own limit.
    /// A run past it is a point where the program never returned: the run stops it (`FaultWalk+Hung.swift`), so one
    /// hung point costs this long and the search goes on.
    static func pointLimit(probeSeconds: Double, minimum: Double, situationLimit: Double) -> Double {
        min(situationLimit, max(minimum, (probeSeconds * probeTimesPerPoint).rounded(.up)))
    }

    /// The probe: the target's base with one `delay 0` rule per kind of call, scoped to the program; returns the run,
    /// how many calls of each kind the program made, and the calls in order with their paths (from the op log;
    /// nil when it could not be read).
    func probe(_ target: Target) throws -> (RunResult, [String: Int], [Call]?) {
        var scenario = target.base
        for op in Self.probedOps {
            var rule = Scenario.Rule()
            rule.ops = [op]
            // Opens are counted on the live store's files only: those are the reads an interleaving delays.
            if op == .open { rule.path = target.storeGlob }
            rule.action = .delay(0)
            rule.actor = target.actor
            scenario.faults.rules.append(rule)
        }
        var settings = settings
        settings.reportsRoot = directory.appendingPathComponent("probe-\(target.program)")
        // The scratch folder holds the op log, which says which file each of the program's calls was on.
        settings.keepScratch = true
        let run = try ScenarioRuns.run(scenario, file: file, settings: settings)
        let result = run.result
        var calls: [String: Int] = [:]
        for (index, op) in Self.probedOps.enumerated() {
            calls[op.rawValue] = result.faults.forRule(index)?.fired ?? 0
        }
        var sequence: [Call]?
        if let scratch = run.scratch {
            sequence = Self.probedCalls(opLog: scratch.appendingPathComponent("faultfs.oplog"))
            try? FileManager.default.removeItem(at: scratch)
        }
        return (result, calls, sequence)
    }

    /// The walks for the counted calls (those with no N to try left out), then a crash right after the program
    /// reports success in each mode (one run each).
    /// With `sequence` (the probe's calls in order), the write walks are grouped: they try the first and the last
    /// write of each run of writes to one file (`representatives`).
    public static func plan(_ program: String, calls: [String: Int], sequence: [Call]? = nil, interleaving: String? = nil,
                            work: [HoldWork]? = nil) -> [Walk] {
        if let glob = interleaving {
            let count = calls["open"] ?? 0
            var walk = Walk(program: program, ops: [.open], action: .hold(FaultAction.defaultHoldMilliseconds), count: count, path: glob)
            walk.whileHeld = work
            return count == 0 ? [] : [walk]
        }
        return (walkShapes + fillingShapes).compactMap { shape -> Walk? in
            let count = shape.ops.reduce(0) { $0 + (calls[$1.rawValue] ?? 0) }
            guard count > 0 else { return nil }
            var walk = Walk(program: program, ops: shape.ops, action: shape.action, count: count)
            if Set(shape.ops).isSubset(of: groupedOps), let sequence,
               let only = representatives(of: sequence, ops: shape.ops, count: count), only.count < count {
                walk.only = only
                walk.calls = count
                walk.count = only.count
            }
            return walk
        } + crashModes.map { Walk(program: program, ops: [], action: .crash($0), count: 1) }
    }

    /// The kinds of call whose walks are grouped by run: the writes (each persistence point is walked whole).
    static let groupedOps: Set<FaultOp> = [.write, .copyFileRange]

    static let crashModes: [CrashMode] = [.keepNone, .reorder, .torn(fill: .zeros)]
    /// What the app does while the program's open of a store file is held: commits only (the -wal grows past what
    /// a copy taken before holds), commits and a PASSIVE checkpoint (the main file rewritten), commits and a
    /// TRUNCATE checkpoint then one more commit (the -wal reset and rewritten from its start). Each ends with a
    /// commit after the checkpoint, so a -wal copied later holds frames the copied database does not match.
    static let interleavings: [(name: String, work: [HoldWork])] = [
        ("commits", [.commit(4)]),
        ("checkpoint-passive", [.commit(4), .checkpoint(.passive), .commit(1)]),
        ("checkpoint-truncate", [.commit(4), .checkpoint(.truncate), .commit(1)]),
    ]

    /// Runs every target's probe and walks until the plan is done, `deadline` passes or an interruption;
    /// `planned` gets the plan's size once every probe ran, `progress` a line per run. Writes `deep.json` and
    /// `deep.md`.
    public func run(deadline: Date?, jobs: Int = 1, shard: Shard? = nil, planned: (Int) -> Void,
                    progress: @escaping @Sendable (String) -> Void) throws -> Summary {
        let started = Date()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var summary = Summary()
        var targets = targets
        for index in targets.indices {
            let target = targets[index]
            let probeStarted = Date()
            let (probeResult, calls, sequence) = try probe(target)
            summary.runs += 1
            summary.calls[target.program] = calls
            if let environment = probeResult.environmentError {
                summary.incomplete = "the probe run could not start the \(target.program) program: \(environment)"
                return try finish(summary, started: started)
            }
            if FaultWalk.hungLimit(probeResult, scenario: target.base) != nil {
                summary.incomplete = "the \(target.program) program never returned in its probe run, with no fault injected (stopped at its time limit of \(Int(target.base.timeLimit)) s)"
                return try finish(summary, started: started)
            }
            targets[index].base.timeLimit = Self.pointLimit(probeSeconds: Date().timeIntervalSince(probeStarted), minimum: minimumPointSeconds,
                                                            situationLimit: target.base.timeLimit)
            summary.pointSeconds?[target.program] = targets[index].base.timeLimit
            var walks = Self.plan(target.program, calls: calls, sequence: sequence, interleaving: target.interleaving ? target.storeGlob : nil,
                                  work: target.work)
            // A restore's points after its swap: the calls past the one that put the backup in place.
            if target.program == "restore" { summary.afterSwap?[target.program] = Self.markAfterSwap(&walks, calls: sequence, storeGlob: target.storeGlob) }
            summary.walks += walks
            progress("probe: \(target.program) made " + Self.probedOps.map { "\(calls[$0.rawValue] ?? 0) \($0)" }.joined(separator: ", "))
        }
        // The short walks first, whichever program they search (the persistence points, the interleavings, the
        // crash after success), so a budget cuts the long walks over every write, not them.
        // The walks that only fill the input/output table come last.
        func filling(_ walk: Walk) -> Int { Self.fillingShapes.contains { $0.ops == walk.ops && $0.action == walk.action } ? 1 : 0 }
        summary.walks = summary.walks.enumerated().sorted {
            (filling($0.element), $0.element.count, $0.offset) < (filling($1.element), $1.element.count, $1.offset)
        }.map(\.element)
        // The input/output table: the (call, answer) pairs each program's walks plan, and those they gave.
        func base(_ program: String) -> String { program.components(separatedBy: "+")[0] }
        var faulted: [String: [String: Int]] = [:]
        summary.total = summary.walks.reduce(0) { $0 + $1.count }
        summary.grouped = summary.walks.reduce(0) { sum, walk in sum + (walk.calls.map { $0 - walk.count } ?? 0) }
        summary.plan = plan(summary, shard: shard)
        summary.searched = []
        // The findings to shrink once the search is done: each with its target, its walk and the call it fired on.
        var found: [(index: Int, target: Target, walk: Walk, hit: FaultHit?)] = []
        // A shard searches every N-th walk of the plan (`RunLoop.slice`); the probes above ran in every shard.
        let mine = RunLoop(shard: shard).slice(summary.walks)
        planned(mine.reduce(0) { $0 + $1.count })
        for walk in mine {
            guard let target = targets.first(where: { $0.program == walk.program }) else { continue }
            if Interruption.requested { summary.incomplete = "interrupted"; break }
            if let deadline, Date() >= deadline { summary.incomplete = "the budget ran out"; break }
            let folder = directory.appendingPathComponent(walk.folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if walk.ops.isEmpty, case .crash(let mode) = walk.action {
                let row = try crashAfterSuccess(target, mode: mode, folder: folder)
                summary.runs += 1
                summary.covered += 1
                progress("\(walk.label) -> \(row.outcome)" + (row.violated.isEmpty ? "" : " (\(row.violated.joined(separator: ", ")))"))
                var hung: [Finding] = []
                if row.outcome == FaultWalk.hung {
                    hung.append(Finding(walk: walk.label, n: 1, operation: "\(target.actor) reported success",
                                        violated: [], evidence: [row.hung ?? ""], cause: nil, repro: nil))
                }
                summary.hung?.append(contentsOf: hung)
                var finding = row.outcome != "violated" ? nil : Finding(walk: walk.label, operation: "\(target.actor) reported success", row: row)
                if var found = finding {
                    Self.explain(&found, report: row.report, calls: summary.calls[target.program], command: target.command)
                    if walk.afterSwap != nil { found.afterSwap = true }
                    finding = found
                }
                if finding != nil { found.append((summary.findings.count, target, walk, nil)) }
                summary.findings += finding.map { [$0] } ?? []
                var searched = Searched(walk: walk.folder, runs: 1, covered: 1, finding: finding, hung: hung.isEmpty ? nil : hung)
                searched.afterSwap = Self.tally([row], after: walk.afterSwap)
                summary.searched?.append(searched)
                continue
            }
            let config = Self.config(of: walk, file: file, actor: target.actor)
            let label = walk.label
            let state = try FaultWalk(base: target.base, config: config, directory: folder, settings: settings,
                                      progress: { line in progress("\(label) \(line)") }, deadline: deadline, jobs: jobs).run()
            summary.runs += state.rows.count
            // A walk stopped at its first failure covers the Ns after it too: they are that finding's neighbours,
            // not a pass, and the next walk takes over.
            let covered = state.firstFailing == nil ? min(walk.count, state.rows.count) : walk.count
            summary.covered += covered
            var walkFaulted: [String: Int] = [:]
            if let answer = Self.ioAnswer(of: walk.action) {
                for row in state.rows where row.fired && row.outcome != FaultWalk.notRun {
                    guard let op = row.hit.map({ Self.ioOp(ofHit: $0.op) }) else { continue }
                    walkFaulted[Self.ioKey(op, answer), default: 0] += 1
                }
            }
            faulted[base(walk.program), default: [:]].merge(walkFaulted, uniquingKeysWith: +)
            let hung = state.rows.filter { $0.outcome == FaultWalk.hung }.map { row in
                Finding(walk: label, n: row.n, operation: row.hit?.summary ?? "call \(row.n)", violated: [],
                        evidence: [row.hung ?? ""], cause: nil, repro: nil)
            }
            summary.hung?.append(contentsOf: hung)
            var finding = state.firstFailing.map { Finding(walk: label, operation: $0.hit?.summary ?? "call \($0.n)", row: $0) }
            if var found = finding, let row = state.firstFailing {
                // An interleaving target counts the same program's calls again: its sync calls are the program's.
                Self.explain(&found, report: row.report, calls: summary.calls[target.program.components(separatedBy: "+")[0]],
                             command: target.command)
                if walk.afterSwap?.contains(row.n) == true { found.afterSwap = true }
                finding = found
            }
            if finding != nil { found.append((summary.findings.count, target, walk, state.firstFailing?.hit)) }
            summary.findings += finding.map { [$0] } ?? []
            if let notRun = state.rows.first(where: { $0.outcome == FaultWalk.notRun }) {
                summary.incomplete = "a run could not start the program: \(notRun.errors.first ?? "")"
                break
            }
            if state.finished == nil {
                summary.incomplete = Interruption.requested ? "interrupted" : "the budget ran out"
                break
            }
            var searched = Searched(walk: walk.folder, runs: state.rows.count, covered: covered, finding: finding,
                                    hung: hung.isEmpty ? nil : hung, faulted: walkFaulted.isEmpty ? nil : walkFaulted)
            searched.afterSwap = Self.tally(state.rows, after: walk.afterSwap)
            summary.searched?.append(searched)
        }
        summary.ioCoverage = Self.ioCoverage(of: summary, faulted: faulted)
        // Every finding's repro shrunk, whatever cut the search (each shrink has its own budget of runs).
        for (index, target, walk, hit) in found where !Interruption.requested {
            try shrink(&summary.findings[index], target: target, walk: walk, hit: hit, budget: shrinkRuns, progress: progress)
            let runs = (summary.findings[index].shrink?.runs ?? 0) + (summary.findings[index].shrink?.replayed ?? 0)
            summary.runs += runs
            // The walk's entry too (its runs with its shrink's), so a merge of shards adds up to the same.
            for searched in (summary.searched ?? []).indices where summary.searched?[searched].walk == walk.folder {
                summary.searched?[searched].finding = summary.findings[index]
                summary.searched?[searched].runs += runs
            }
        }
        return try finish(summary, started: started)
    }

    /// The fault walk of one walk of the plan: its Ns (every call up to `count`, or the chosen ones of a grouped
    /// walk, up to the last of them), stopping at the first failure; a program that reports failure when its call
    /// fails is right in the fault walks (`backup-completes` excused), not in the crash walks or interleavings.
    public static func config(of walk: Walk, file: String, actor: String) -> FaultWalk.Config {
        let interleaving = walk.whileHeld != nil
        let crash: Bool
        if case .crash = walk.action { crash = true } else { crash = false }
        return FaultWalk.Config(scenarioFile: file, ops: walk.ops, path: walk.path, action: walk.action, max: walk.only?.last ?? walk.count,
                                stopAtFailure: true, actor: actor, excused: crash || interleaving ? nil : ["backup-completes"],
                                only: walk.only, whileHeld: walk.whileHeld)
    }

    /// One run of the target's base with the power failing the moment the program reports success (`crash:
    /// during_step` at the step's end, `at_end`), in `mode`; a repro in `folder` when an invariant is violated.
    func crashAfterSuccess(_ target: Target, mode: CrashMode, folder: URL) throws -> FaultWalk.Row {
        let scenario = Self.crashAfterSuccessScenario(target, mode: mode)
        var settings = settings
        settings.reportsRoot = folder.appendingPathComponent("runs")
        settings.progress = nil
        let started = Date()
        let run = try ScenarioRuns.run(scenario, file: file, settings: settings)
        let result = run.result
        if let limit = FaultWalk.hungLimit(result, scenario: scenario) {
            return FaultWalk.Row(n: 1, fired: true, hit: nil, outcome: FaultWalk.hung, violated: [], evidence: [], cause: nil,
                                 errors: result.errors, seconds: Date().timeIntervalSince(started), report: run.directory.url.path,
                                 hung: "the program never returned (the crash was to come the moment it reported success); stopped at the run's time limit of \(Int(limit)) s")
        }
        return try FaultWalk.row(n: 1, of: run, scenario: scenario, file: file, fired: true, hit: nil, excused: [],
                                 seconds: Date().timeIntervalSince(started),
                                 repro: (name: "\(target.base.name)-crash-after-success-\(mode)", file: folder.appendingPathComponent("repro.yaml"),
                                         note: "try --deep: crash (\(mode)) the moment \(target.actor) reported success"))
    }

    /// The target's base with the power failing the moment the program reports success, in `mode`, under the
    /// base's `turns` scheduler: the crash comes at the step's end (`at_end`) with no writer turn beside the step,
    /// so the program copies the store as the last turn left it (the app still running, its `-wal` unmerged) and the
    /// crash finds the same state in every run. Under `free`, with a delay no program reaches, the writer raced the
    /// copy: the tutorial's `cp` script's repro, shrunk to fewer transactions, showed `wal-content-carried` in one
    /// replay and not the next (the writer had sometimes ended, merging its `-wal`, before `cp` read the database).
    static func crashAfterSuccessScenario(_ target: Target, mode: CrashMode) -> Scenario {
        var scenario = target.base
        var crash = Scenario.Crash()
        crash.duringStep = target.step
        crash.moment = .atEnd
        crash.mode = mode
        scenario.faults.crash = crash
        return scenario
    }

    private func finish(_ summary: Summary, started: Date) throws -> Summary {
        var summary = summary
        summary.seconds = Date().timeIntervalSince(started)
        summary.rootCauses = Self.rootCauses(of: summary.findings)
        summary.afterSwap = Self.afterSwap(of: summary)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(summary).write(to: directory.appendingPathComponent("deep.json"), options: .atomic)
        try Data(Self.markdown(summary).utf8).write(to: directory.appendingPathComponent("deep.md"), options: .atomic)
        return summary
    }

    /// "covered 40 of 212 points (19%)"; ", 1 hung" when the program never returned at some.
    public static func coverage(_ summary: Summary) -> String {
        let percent = summary.total == 0 ? 100 : summary.covered * 100 / summary.total
        return "covered \(summary.covered) of \(summary.total) points (\(percent)%)"
            + ((summary.hung ?? []).isEmpty ? "" : ", \(summary.hung?.count ?? 0) hung")
            + (summary.grouped > 0 ? "; \(summary.grouped) more writes stood for by the first and last of their run" : "")
    }
}
