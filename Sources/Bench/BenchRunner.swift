import Foundation
import StoreCheck
import StoreModel

/// Runs a bench plan: stores from the cache, one fresh child process per strategy and round, the checker on
/// each store, and the report. Progress goes to `progress` one line at a time; `events` (for a progress line)
/// hears when each measured unit starts and ends.
public struct BenchRunner: Sendable {
    public var plan: BenchPlan
    /// Where the run is: `.working` before a step (copying, a round, a comparison), `.measured` after each
    /// round of `plan.measuredUnits`.
    public var events: (@Sendable (BenchEvent) -> Void)?

    public init(plan: BenchPlan) { self.plan = plan }

    public func run(id: String, progress: @escaping @Sendable (String) -> Void = { _ in }) throws -> BenchReport {
        let volume: ReflinkVolume?
        if plan.volume == .xfsReflink {
            let largest = plan.sizes.max() ?? 0
            // Room for the store and one backup of it, plus XFS's own metadata.
            volume = try ReflinkVolume.create(bytes: largest * 5 / 2 + 2_000_000_000, log: progress)
        } else {
            volume = nil
        }
        let faultfs = plan.volume == .faultfs ? try FaultFSBenchVolume(in: plan.scratch, id: id) : nil
        let work = (volume?.mountPoint ?? faultfs?.mountPoint ?? plan.scratch).appendingPathComponent("bench-\(id)", isDirectory: true)
        let guardian = InterruptCleanup {
            try? FileManager.default.removeItem(at: work)
            volume?.remove()
            faultfs?.remove()
        }
        defer {
            guardian.cancel()
            try? FileManager.default.removeItem(at: work)
            volume?.remove()
            faultfs?.remove()
        }
        if let faultfs { progress("mounted FaultFS (no fault armed, op log on) at \(faultfs.mountPoint.path): rounds count their sync calls") }
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)

        var stores: [BenchReport.StoreInfo] = []
        var results: [BenchReport.Result] = []
        for size in plan.sizes {
            events?(.working(plan.userStore.map { "copying \($0.lastPathComponent) (\(ByteCount.format(size)))" }
                             ?? "preparing the \(ByteCount.label(size)) store"))
            if let userStore = plan.userStore {
                progress("copying your store \(userStore.path) (\(ByteCount.format(size))) to a work folder; the original is only read")
            } else {
                progress("\(ByteCount.label(size)): preparing the store (generated in a child process unless cached)")
            }
            let entry = try plan.userStore.map { try prepareUserStore($0, work: work) } ?? prepareStore(size)
            let manifest = entry.manifest
            if plan.userStore != nil {
                progress("your store: \(ByteCount.format(manifest.actualBytes)) on disk, \(manifest.objects) objects, \(manifest.attachments) external-data references")
            } else {
                progress("\(ByteCount.label(size)): \(entry.reused ? "cached" : "generated") store \(ByteCount.format(manifest.actualBytes)), \(manifest.objects) objects, \(manifest.attachments) attachments")
            }
            stores.append(BenchReport.StoreInfo(targetBytes: size, actualBytes: manifest.actualBytes, databaseBytes: manifest.databaseBytes,
                                                objects: manifest.objects, attachments: manifest.attachments))
            var live = entry.database
            var liveCopy: URL?
            if volume != nil || faultfs != nil {
                let folder = work.appendingPathComponent("store-\(ByteCount.label(size))", isDirectory: true)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try copyStore(entry.database, into: folder)
                live = folder.appendingPathComponent(entry.database.lastPathComponent)
                liveCopy = folder
            }
            defer { if let liveCopy { try? FileManager.default.removeItem(at: liveCopy) } }
            for strategy in plan.strategies {
                var rounds: [BenchReport.Round] = []
                var sourceCheck: SourceCheck?
                for round in 1...plan.rounds {
                    let target = work.appendingPathComponent("backup-\(strategy)-\(round)")
                    // The last round's output is compared with the store (unmeasured, after the child ended).
                    let source = live
                    let check = round == plan.rounds ? { @Sendable (backup: URL) -> SourceCheck in
                        events?(.working("checking \(strategy)'s backup against the store"))
                        return SourceCheck.compare(backup, against: source)
                    } : nil
                    events?(.working("\(strategy) round \(round)/\(plan.rounds)"))
                    var measured: BenchReport.Round
                    if let faultfs {
                        let (value, syncs) = try faultfs.countingSyncs("\(strategy) round \(round)") {
                            try backupRound(strategy: strategy, live: live, into: target, check: check)
                        }
                        (measured, sourceCheck) = value
                        for (call, count) in syncs { measured.child?.details[call] = String(count) }
                    } else {
                        (measured, sourceCheck) = try backupRound(strategy: strategy, live: live, into: target, check: check)
                    }
                    let line = String(format: "%@ %@ round %d/%d: %.2f s, peak RSS %@", ByteCount.label(size), strategy, round, plan.rounds,
                                      measured.wallSeconds, ByteCount.format(measured.peakRSSBytes))
                    progress(line)
                    events?(.measured(line))
                    rounds.append(measured)
                }
                var result = BenchReport.Result(strategy: strategy, targetBytes: size, storeBytes: manifest.actualBytes, rounds: rounds)
                result.sourceCheck = sourceCheck
                if let sourceCheck { progress("\(ByteCount.label(size)) \(strategy): output against the store: \(sourceCheck.summary)") }
                results.append(result)
            }
            if plan.measureChecker {
                var rounds: [BenchReport.Round] = []
                for round in 1...plan.rounds {
                    events?(.working("check round \(round)/\(plan.rounds)"))
                    let measured = try checkRound(live)
                    let line = String(format: "%@ check round %d/%d: %.2f s, peak RSS %@", ByteCount.label(size), round, plan.rounds,
                                      measured.wallSeconds, ByteCount.format(measured.peakRSSBytes))
                    progress(line)
                    events?(.measured(line))
                    rounds.append(measured)
                }
                results.append(BenchReport.Result(strategy: BenchReport.checkerName, targetBytes: size, storeBytes: manifest.actualBytes, rounds: rounds))
            }
        }
        var configuration = BenchReport.Configuration(sizes: plan.sizes, strategies: plan.strategies, blobFraction: plan.blobFraction,
                                                      blobSize: plan.blobSize, seed: plan.seed, rounds: plan.rounds, volume: plan.volume.rawValue)
        configuration.userStore = plan.userStore?.path
        return BenchReport(id: id, createdAt: ISO8601DateFormatter().string(from: Date()), host: .current, configuration: configuration,
                           stores: stores, results: results, growth: GrowthFit.fits(results))
    }

    /// The cached store of `size`, generated if needed in a child process: generating in this process would
    /// leave its heap large, and wait4's ru_maxrss of every later child cannot read below this process's RSS.
    func prepareStore(_ size: Int64) throws -> StoreCache.Entry {
        let result = try ProcessSpawn.run(plan.childExecutable, [
            "bench-child", "--prepare-store", "--size", String(size), "--blob-fraction", String(plan.blobFraction),
            "--blob-size", String(plan.blobSize), "--seed", String(plan.seed), "--cache", plan.cache.path,
        ])
        let line = result.standardOutput.split(separator: "\n").last { $0.hasPrefix("{") }
        guard result.succeeded, let line, let entry = try? JSONDecoder().decode(StoreCache.Entry.self, from: Data(line.utf8)) else {
            throw BenchError.childFailed("preparing the \(ByteCount.label(size)) store failed (exit \(result.exitCode)): \(result.standardError.suffix(800))")
        }
        return entry
    }

    /// One backup in a fresh child, into a fresh empty directory that is removed afterwards; with `check`, its
    /// output is compared with the store before that.
    func backupRound(strategy: String, live: URL, into directory: URL,
                     check: (@Sendable (URL) -> SourceCheck)? = nil) throws -> (BenchReport.Round, SourceCheck?) {
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent(live.lastPathComponent)
        let round = try measure(["bench-child", "--strategy", strategy, "--store", live.path, "--into", directory.path],
                                what: "backup with \(strategy) of \(live.path)", resultAt: output, sampleMemory: true)
        return (round, check?(output))
    }

    /// The checker (`StoreVerifier`, what `lifeboat check` runs) in a child: it must stream, so its peak RSS
    /// should not follow the store.
    func checkRound(_ live: URL) throws -> BenchReport.Round {
        try measure(["bench-child", "--check", "--store", live.path], what: "check of \(live.path)", resultAt: nil)
    }

    /// Spawns `lifeboat <arguments>`, reaps it and combines the kernel's figures with the child's own line.
    func measure(_ arguments: [String], what: String, resultAt: URL?, sampleMemory: Bool = false) throws -> BenchReport.Round {
        let result = try ProcessSpawn.run(plan.childExecutable, arguments, sampleMemory: sampleMemory)
        guard result.succeeded, let child = ChildReport.parse(result.standardOutput) else {
            throw BenchError.childFailed("\(what) failed in the child (exit \(result.exitCode)): \(result.standardError.suffix(800))")
        }
        var round = BenchReport.Round(wallSeconds: result.wallSeconds, cpuSeconds: result.userSeconds + result.systemSeconds,
                                      peakRSSBytes: child.highWaterRSSBytes ?? result.peakRSSBytes, waitMaxRSSBytes: result.peakRSSBytes,
                                      spawnFloorBytes: result.spawnFloorBytes, child: child, resultBytes: resultAt.map { StoreSize.of($0) })
        if sampleMemory { round.memorySamples = result.memorySamples }
        return round
    }

    /// Copies a cached store (database and support folder) onto the bench volume.
    func copyStore(_ database: URL, into folder: URL) throws {
        let source = database.deletingLastPathComponent()
        let name = database.deletingPathExtension().lastPathComponent
        for item in [database.lastPathComponent, ".\(name)_SUPPORT"] {
            let from = source.appendingPathComponent(item)
            if FileManager.default.fileExists(atPath: from.path) {
                try FileManager.default.copyItem(at: from, to: folder.appendingPathComponent(item))
            }
        }
    }
}

/// Where a bench run is, for a progress line.
public enum BenchEvent: Sendable {
    /// About to copy, generate, run a round or compare: what is going on now.
    case working(String)
    /// A measured round (of a strategy or the checker) ended; its line.
    case measured(String)
}

extension BenchPlan {
    /// Rounds the run measures: strategies and the checker, on every store.
    public var measuredUnits: Int { sizes.count * rounds * (strategies.count + (measureChecker ? 1 : 0)) }
}

extension SourceCheck {
    /// `lifeboat check OUTPUT --against SOURCE`, summed up in a line.
    static func compare(_ output: URL, against source: URL) -> SourceCheck {
        let started = Date()
        let report: CheckReport
        do { report = try StoreComparison.compare(output, against: source) } catch {
            return SourceCheck(equal: false, summary: "could not compare: \(error)", seconds: Date().timeIntervalSince(started))
        }
        let seconds = Date().timeIntervalSince(started)
        guard report.hasViolations else {
            let notes = report.findings.filter { $0.severity == .warning }.map(\.kind.rawValue)
            return SourceCheck(equal: true, summary: "equal" + (notes.isEmpty ? "" : " (" + Set(notes).sorted().joined(separator: ", ") + ")"), seconds: seconds)
        }
        let kinds = Dictionary(grouping: report.violations, by: \.kind.rawValue).mapValues(\.count)
            .merging(report.suppressed) { $0 + $1 }
        let first = report.violations.first.map { ": e.g. \($0)" } ?? ""
        return SourceCheck(equal: false, summary: "DIFFERS: " + kinds.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ") + first,
                           seconds: seconds)
    }
}

extension BenchReport {
    /// The name the checker's results carry in place of a strategy.
    public static let checkerName = "check"
}

extension BenchReport.Host {
    /// This machine: CPUs, memory, kernel release, and whether this build is optimized.
    public static var current: BenchReport.Host {
        var names = utsname()
        uname(&names)
        let release = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        #if DEBUG
        let configuration = "debug"
        #else
        let configuration = "release"
        #endif
        return BenchReport.Host(cpus: ProcessInfo.processInfo.activeProcessorCount,
                                memoryBytes: Int64(ProcessInfo.processInfo.physicalMemory), kernel: release,
                                buildConfiguration: configuration)
    }
}
