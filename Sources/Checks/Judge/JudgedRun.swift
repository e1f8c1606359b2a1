import Foundation
import StoreCheck
import Workload

/// A run record with what every invariant derives from it computed once: the writers' transactions as the
/// oracle takes them, one oracle per round of writers, and the stores the run measured.
public struct JudgedRun: Sendable {
    public let record: RunRecord
    /// The transactions, with a crash rule's freeze artifacts corrected (see `withoutFreezeArtifacts`).
    public let transactions: [Transaction]
    /// One oracle per round of writers: each store is held to the round it belongs to.
    public let oracles: [Oracle]

    public init(_ record: RunRecord) {
        self.record = record
        transactions = Self.withoutFreezeArtifacts(record.transactions, frozenAt: record.frozenAt)
        let all = Oracle(transactions: transactions, initial: record.initial, imported: record.cloud.importedFromOtherDevices(transactions: transactions))
        let rounds = record.rounds.isEmpty ? [RoundRecord(number: 0, start: 0, base: record.initial)] : record.rounds
        oracles = rounds.map { all.round($0.number, base: $0.base) }
    }

    /// Writers and readers that ended on their own with a non-zero status (`ProcessExits`). Not after a crash: a
    /// frozen volume fails a process's calls until the runner stops it, which is the crash's doing, judged by
    /// the durability invariants.
    public var processExits: [Verdict] {
        guard record.crash == nil, record.frozenAt == nil else { return [] }
        return ProcessExits.verdicts(record.processes.filter(\.failed).compactMap { process in
            process.status.map { ProcessExits.Ended(name: process.name, status: $0, outputTail: process.outputTail) }
        })
    }

    /// The round running at `seconds` on the run clock.
    public func roundNumber(at seconds: Double) -> Int {
        record.rounds.last { $0.start <= seconds }?.number ?? 0
    }

    /// The oracle of round `number` (the last one for a round past the end).
    public func oracle(round number: Int) -> Oracle {
        oracles[max(0, min(number, oracles.count - 1))]
    }

    public var backups: [StepRecord] { record.steps.filter { $0.action == .backup } }
    public var restores: [StepRecord] { record.steps.filter { $0.action == .restore } }

    /// The backup step a restore was given.
    public func backup(named name: String) -> StepRecord? {
        record.steps.last { $0.action == .backup && $0.name == name }
    }

    /// Every store the run measured with the checker, each with what is not its own finding: on a restored
    /// store, the attachment files the backup it was given already lacked (the backup step's finding); on the
    /// live store after a crash (and at the end after one), the files the app's own operations took
    /// (`app-durable`'s). `integrity`, `no-duplicates` and `blobs-carried` look at each.
    public var checkedStores: [(store: StoreMeasurement, inherited: @Sendable (Finding) -> Bool)] {
        var stores: [(StoreMeasurement, @Sendable (Finding) -> Bool)] = []
        for step in record.steps {
            if let backup = step.backup { stores.append((backup.store, { _ in false })) }
            if let restore = step.restore {
                let lacking = missingFiles(givenTo: restore)
                stores.append((restore.live, { $0.kind == .missingExternalFile && lacking.contains(Self.objectKey($0)) }))
            }
        }
        let appsOwn = record.crash?.appsMissingExternalFiles ?? []
        let isAppsOwn: @Sendable (Finding) -> Bool = { finding in finding.externalFileName.map(appsOwn.contains) ?? false }
        if let live = record.crash?.live { stores.append((live, isAppsOwn)) }
        if let live = record.liveAtEnd { stores.append((live, isAppsOwn)) }
        return stores
    }

    /// The attachment files the backup a restore was given lacked, by the object naming each ("Note Z_PK 12")
    /// and by file name: from its report as the restore found it, or else as it was right after the backup.
    func missingFiles(givenTo restore: RestoreMeasurement) -> Set<String> {
        let report = restore.backupAsGiven?.value ?? backup(named: restore.source)?.backup?.store.checks.value
        let missing = (report?.violations ?? []).filter { $0.kind == .missingExternalFile }
        return Set(missing.map(Self.objectKey)).union(missing.compactMap(\.externalFileName))
    }

    static func objectKey(_ finding: Finding) -> String { "\(finding.entity ?? "") \(finding.object ?? "")" }

    /// Between a crash rule's freeze and the crash every call fails with EIO, and a writer sees its transaction
    /// fail where a real power cut would have left it without an answer. So after a crash rule: a writer's
    /// transaction that failed after its last commit before the freeze was in flight at the crash, and
    /// transactions begun after the freeze never reached the disk at all (dropped). Failures before that (other
    /// rules) stay failures.
    static func withoutFreezeArtifacts(_ transactions: [Transaction], frozenAt: Double?) -> [Transaction] {
        guard let frozenAt else { return transactions }
        let lastAck = Dictionary(grouping: transactions.filter { ($0.ackAt ?? .infinity) <= frozenAt }, by: \.writer)
            .mapValues { $0.compactMap(\.ackAt).max() ?? -.infinity }
        return transactions.compactMap { transaction in
            guard transaction.outcome == .failed, transaction.intentAt > lastAck[transaction.writer, default: -.infinity] else { return transaction }
            if transaction.intentAt > frozenAt { return nil }
            var inFlight = transaction
            inFlight.outcome = .inFlight
            inFlight.error = nil
            return inFlight
        }
    }
}
