import Checks
import FaultFS
import Foundation
import SeededRandomness
import StoreCheck
import StoreModel
import Workload

/// CrashMonkey/ALICE-style crash states from one run's FaultFS op log: at each persistence point (an fsync,
/// fdatasync or directory fsync), the disk may hold what was durable plus any part of what was not. The
/// enumerator builds those states for the store's database files (the .sqlite, -wal and -journal; the -shm is
/// rebuilt by SQLite after a crash, and external data files are written once and renamed, so they are left
/// out), lets SQLite recover each and checks it: integrity, every writer's state a prefix of its history, and
/// every transaction acknowledged before the point present.
public struct CrashStateEnumerator {
    /// One crash state: at which barrier, which non-durable operations survive, and how the last write tears.
    public struct State: Sendable, Codable {
        public var point: UInt64
        public var variant: String
        public var kept: [UInt64]
        public var tornCut: Int?
    }

    public struct Failure: Sendable, Codable {
        public var state: State
        public var problems: [String]
    }

    public struct Summary: Sendable, Codable {
        public var schema = "lifeboat.crash-states/1"
        public var persistencePoints = 0
        public var pointsChecked = 0
        public var statesChecked = 0
        public var statesFailed = 0
        public var seconds = 0.0
        public var statesPerSecond = 0.0
        public var failures: [Failure] = []
        public var variants: [String: Int] = [:]
    }

    let records: [OpRecord]
    let log: URL
    /// The store's database files at the log mark (everything durable then), by mount-relative path.
    let start: [String: Data]
    let trackedPrefix: String
    let oracle: Oracle
    /// Run time minus log time: converts barrier times to the history's clock.
    let clockOffset: Double
    /// The support folder every state shares: external data files are written once under a fresh name and
    /// removed only after a grace period, so the folder as the run left it holds every file any state refers to.
    let supportFolder: URL?

    /// - Parameters: `records` from the mark on; `start` the files at the mark; `databaseName` e.g. "/Library.sqlite".
    public init(records: [OpRecord], log: URL, start: [String: Data], databaseName: String, oracle: Oracle, clockOffset: Double,
                supportFolder: URL? = nil) {
        self.supportFolder = supportFolder
        self.records = records
        self.log = log
        self.start = start
        trackedPrefix = databaseName
        self.oracle = oracle
        self.clockOffset = clockOffset
    }

    func tracked(_ path: String?) -> Bool {
        guard let path else { return false }
        return path == trackedPrefix || path == trackedPrefix + "-wal" || path == trackedPrefix + "-journal"
    }

    static let dataOps: Set = ["write", "truncate", "copy_file_range", "fallocate"]
    static let entryOps: Set = ["create", "unlink", "rename"]

    /// Applies one operation to an in-memory image of the files.
    func apply(_ record: OpRecord, to files: inout [String: Data], tornCut: Int? = nil) throws {
        guard record.result >= 0, let path = record.path else { return }
        switch record.op {
        case "write", "copy_file_range":
            guard tracked(path), let offset = record.offset, var payload = try OpLog.payload(of: record, log: log) else { return }
            if let tornCut { payload = payload.prefix(tornCut) + Data(count: max(0, payload.count - tornCut)) }
            var data = files[path] ?? Data()
            let end = Int(offset) + payload.count
            if data.count < end { data.append(Data(count: end - data.count)) }
            data.replaceSubrange(Int(offset)..<end, with: payload)
            files[path] = data
        case "truncate":
            guard tracked(path), let size = record.size else { return }
            var data = files[path] ?? Data()
            if data.count > Int(size) { data = data.prefix(Int(size)) } else { data.append(Data(count: Int(size) - data.count)) }
            files[path] = data
        case "fallocate":
            guard tracked(path), let size = record.size, (files[path]?.count ?? 0) < Int(size) else { return }
            files[path, default: Data()].append(Data(count: Int(size) - (files[path]?.count ?? 0)))
        case "create":
            if tracked(path), files[path] == nil { files[path] = Data() }
        case "unlink":
            files[path] = nil
        case "rename":
            if let target = record.path2 {
                files[target] = files[path]
                files[path] = nil
            }
        default:
            return
        }
    }

    /// Walks the log once, checking up to `maxPoints` persistence points (spread by the seed) with every variant.
    public func run(scratch: URL, maxPoints: Int, seed: UInt64, progress: ((String) -> Void)? = nil) throws -> Summary {
        let started = Date()
        var summary = Summary()
        var durable = start
        var pending: [OpRecord] = []
        let barriers = records.filter { ["fsync", "fdatasync", "fsyncdir", "sync-all"].contains($0.op) && $0.result >= 0 }
        summary.persistencePoints = barriers.count
        var random = SeededRandom(seed: seed)
        var chosen = Set<UInt64>()
        let interesting = barriers.filter { tracked($0.path) || $0.op == "fsyncdir" }
        if interesting.count <= maxPoints {
            chosen = Set(interesting.map(\.seq))
        } else {
            while chosen.count < maxPoints { chosen.insert(interesting[Int(random.next() % UInt64(interesting.count))].seq) }
        }
        for record in records {
            if ["fsync", "fdatasync", "fsyncdir", "sync-all"].contains(record.op) {
                let synced = Set(record.synced ?? [])
                if chosen.contains(record.seq) {
                    try check(point: record, durable: durable, pending: pending, scratch: scratch, summary: &summary)
                    if summary.pointsChecked % 10 == 0 {
                        progress?("crash states: \(summary.pointsChecked)/\(chosen.count) points, \(summary.statesChecked) states, \(summary.statesFailed) failed")
                    }
                }
                for op in pending where synced.contains(op.seq) { try apply(op, to: &durable) }
                pending.removeAll { synced.contains($0.seq) }
                continue
            }
            guard record.result >= 0, record.durable == false,
                  Self.dataOps.contains(record.op) || Self.entryOps.contains(record.op) else { continue }
            if tracked(record.path) || tracked(record.path2) { pending.append(record) }
        }
        summary.seconds = Date().timeIntervalSince(started)
        summary.statesPerSecond = Double(summary.statesChecked) / max(summary.seconds, 0.001)
        return summary
    }

    /// The variants at one point: nothing pending kept, growing prefixes, each single omission, the last write
    /// torn, and the data kept without the pending directory entries.
    func variants(_ pending: [OpRecord]) -> [(String, [OpRecord], Int?)] {
        var result: [(String, [OpRecord], Int?)] = [("keep-none", [], nil)]
        guard !pending.isEmpty else { return result }
        let steps = Set(stride(from: 1, through: pending.count, by: max(1, pending.count / 6)).map { $0 } + [pending.count])
        for k in steps.sorted() { result.append(("prefix \(k)", Array(pending.prefix(k)), nil)) }
        for index in pending.indices.suffix(6) where pending.count > 1 {
            var kept = pending
            kept.remove(at: index)
            result.append(("omit seq \(pending[index].seq)", kept, nil))
        }
        if let last = pending.lastIndex(where: { $0.op == "write" }), let length = pending[last].length, length > 512 {
            let cut = Int(length / 2) / 512 * 512
            result.append(("torn seq \(pending[last].seq) at +\(cut)", Array(pending.prefix(through: last)), cut))
        }
        if pending.contains(where: { Self.entryOps.contains($0.op) }) {
            result.append(("no pending entries", pending.filter { !Self.entryOps.contains($0.op) }, nil))
        }
        return result
    }

    func check(point: OpRecord, durable: [String: Data], pending: [OpRecord], scratch: URL, summary: inout Summary) throws {
        summary.pointsChecked += 1
        let pointTime = point.t + clockOffset
        for (variant, kept, tornCut) in variants(pending) {
            var files = durable
            for (index, op) in kept.enumerated() {
                try apply(op, to: &files, tornCut: index == kept.count - 1 ? tornCut : nil)
            }
            let directory = scratch.appendingPathComponent("state-\(summary.statesChecked)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            for (path, data) in files { try data.write(to: directory.appendingPathComponent(String(path.dropFirst()))) }
            let database = directory.appendingPathComponent(String(trackedPrefix.dropFirst()))
            if let supportFolder {
                try FileManager.default.createSymbolicLink(at: StoreFiles(database).supportFolder, withDestinationURL: supportFolder)
            }
            let state = State(point: point.seq, variant: variant, kept: kept.map(\.seq), tornCut: tornCut)
            let problems = problemsIn(database, at: pointTime)
            summary.statesChecked += 1
            summary.variants[String(variant.split(separator: " ").first ?? ""), default: 0] += 1
            if !problems.isEmpty {
                summary.statesFailed += 1
                if summary.failures.count < 20 { summary.failures.append(Failure(state: state, problems: problems)) }
            }
        }
    }

    /// What is wrong with one recovered state: integrity, a writer whose state is no prefix of its history, or a
    /// transaction acknowledged before the point that is missing.
    func problemsIn(_ database: URL, at time: Double) -> [String] {
        guard FileManager.default.fileExists(atPath: database.path) else { return [] }
        if (StoreFiles.size(database) ?? 0) == 0 { return [] }
        var problems: [String] = []
        do {
            let report = try StoreVerifier.verify(database)
            let serious: Set<Finding.Kind> = [.integrity, .bookkeeping, .unreadable, .danglingRelationship, .duplicateIdentity, .metadata]
            problems += report.violations.filter { serious.contains($0.kind) }.prefix(3).map(\.description)
            guard problems.isEmpty else { return problems }
            let state = try StoreState.read(database)
            for match in oracle.match(state) {
                guard let reflected = match.prefixes.max() else {
                    problems.append("writer \(match.writer): matches no prefix of its history")
                    continue
                }
                let acked = oracle.sequence(of: match.writer).filter { ($0.ackAt ?? .infinity) < time }.count
                if reflected < acked { problems.append("writer \(match.writer): \(acked) acknowledged before this point, \(reflected) present") }
            }
        } catch {
            problems.append("cannot read: \(error)")
        }
        return problems
    }
}
