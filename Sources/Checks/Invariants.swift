import Foundation
import StoreCheck
import StoreModel
import Workload

/// The invariants, each a function from evidence to a verdict with a name. Names match scenario files.
public enum Invariants {
    /// `integrity`, `no-duplicates`, `blobs-carried` of one store, from one pass of the store checker.
    public static func storeChecks(_ url: URL, label: String) -> [Verdict] {
        let report: CheckReport
        do {
            report = try StoreVerifier.verify(url)
        } catch {
            return [Verdict("integrity", .violated, "\(label): no store", evidence: ["\(error)"])]
        }
        func verdict(_ name: String, _ kinds: Set<Finding.Kind>, _ what: String) -> Verdict {
            let found = report.violations.filter { kinds.contains($0.kind) }
            let count = kinds.reduce(0) { $0 + report.count($1) }
            if found.isEmpty { return Verdict(name, .held, "\(label): \(what)") }
            return Verdict(name, .violated, "\(label): \(count) finding(s)", evidence: found.prefix(12).map { "\(label): \($0)" })
        }
        var blobs = verdict("blobs-carried", [.missingExternalFile], "\(report.externalReferences) external references resolve")
        let orphans = report.findings.filter { $0.kind == .orphanExternalFile }
        if !orphans.isEmpty { blobs.evidence += orphans.prefix(5).map { "\(label): \($0)" } }
        return [
            verdict("integrity", [.integrity, .bookkeeping, .metadata, .unreadable, .danglingRelationship],
                    "integrity_check ok, bookkeeping consistent"),
            verdict("no-duplicates", [.duplicateIdentity], "each identity once"),
            blobs,
        ]
    }

    /// `wal-content-carried`: every transaction acknowledged before the backup began is in it.
    public static func walContentCarried(_ matches: [Oracle.Match], oracle: Oracle, backupStart: Double, label: String) -> Verdict {
        var evidence: [String] = []
        for match in matches {
            let acked = oracle.sequence(of: match.writer).prefix { $0.ackAt.map { $0 < backupStart } ?? false }.count
            let reflected = match.prefixes.max() ?? -1
            if reflected < acked {
                let missing = oracle.sequence(of: match.writer).dropFirst(max(0, reflected)).prefix(acked - max(0, reflected))
                let description = reflected < 0 ? "matches no prefix of its history" : "reflects \(reflected) of its transactions"
                evidence.append("\(label): writer \(match.writer) \(description), but \(acked) were acknowledged before the backup began; first missing: "
                    + missing.prefix(3).map { tx in "tx \(tx.seq) (\(tx.ops.map { "\($0.op) \($0.entity) \($0.id.uuidString)" }.joined(separator: ", ")))" }.joined(separator: "; "))
            }
        }
        if evidence.isEmpty { return Verdict("wal-content-carried", .held, "\(label): every acknowledged transaction is in") }
        return Verdict("wal-content-carried", .violated, "\(label): acknowledged transactions missing", evidence: evidence)
    }

    /// `wal-content-carried` for a backup that cannot be opened at all (a main file copied after a checkpoint
    /// that stopped short can be malformed): none of the transactions acknowledged before it began can be read
    /// back from it. Held only when there were none.
    public static func walContentUnreadable(oracle: Oracle, backupStart: Double, label: String) -> Verdict {
        let acked = oracle.writers.map { writer in oracle.sequence(of: writer).prefix { $0.ackAt.map { $0 < backupStart } ?? false }.count }.reduce(0, +)
        if acked == 0 { return Verdict("wal-content-carried", .held, "\(label): unreadable, but no transaction was acknowledged before it began") }
        return Verdict("wal-content-carried", .violated, "\(label): the backup cannot be opened",
                       evidence: ["\(label): cannot be opened as a store, so none of the \(acked) transaction(s) acknowledged before the backup began can be read back from it"])
    }

    /// `snapshot-consistent`: the store equals the history's state after some prefix of commits, with nothing
    /// begun after `end` and the initial objects unchanged.
    public static func snapshotConsistent(_ matches: [Oracle.Match], oracle: Oracle, state: StoreState, end: Double, label: String) -> Verdict {
        var evidence: [String] = []
        for match in matches {
            if match.prefixes.isEmpty {
                evidence.append("\(label): writer \(match.writer): the store matches no prefix of its \(match.sequenceLength) transactions")
                evidence += match.mismatches
            } else if let low = match.prefixes.min(), low > 0 {
                let sequence = oracle.sequence(of: match.writer)
                if sequence[low - 1].intentAt > end {
                    evidence.append("\(label): writer \(match.writer): contains tx \(sequence[low - 1].seq), begun at \(String(format: "%.3f", sequence[low - 1].intentAt)) s, after the copy ended at \(String(format: "%.3f", end)) s")
                }
            }
        }
        evidence += oracle.strangers(state).map { "\(label): \($0)" }
        if evidence.isEmpty { return Verdict("snapshot-consistent", .held, "\(label): a prefix of every writer's commits") }
        return Verdict("snapshot-consistent", .violated, "\(label): not a state the history can explain", evidence: evidence)
    }

    /// `durable-after-crash`: after recovery every transaction acknowledged (at synchronous=FULL) is present and
    /// the store is a prefix state.
    public static func durableAfterCrash(_ matches: [Oracle.Match], oracle: Oracle, crashAt: Double, synchronous: String, fault: String) -> Verdict {
        guard synchronous == "full" || synchronous == "extra" else {
            return Verdict("durable-after-crash", .notApplicable, "writers ran at synchronous=\(synchronous): acknowledged does not mean durable")
        }
        var evidence: [String] = []
        for match in matches {
            let acked = oracle.sequence(of: match.writer).filter { $0.ackAt.map { $0 <= crashAt } ?? false }.count
            guard let reflected = match.prefixes.max() else {
                evidence.append("after \(fault): writer \(match.writer): the recovered store matches no prefix of its history")
                evidence += match.mismatches
                continue
            }
            if reflected < acked {
                evidence.append("after \(fault): writer \(match.writer) had \(acked) transactions acknowledged, the recovered store has \(reflected); lost from tx \(oracle.sequence(of: match.writer)[reflected].seq)")
            }
        }
        if evidence.isEmpty { return Verdict("durable-after-crash", .held, "every acknowledged transaction survived \(fault)") }
        return Verdict("durable-after-crash", .violated, "acknowledged transactions lost after \(fault)", evidence: evidence)
    }

    /// `live-store-unaffected`: writers saw no errors (SQLITE_BUSY waits aside) and the live store holds exactly
    /// what they committed. `readAt`: when the state was read while a writer could still commit (the store as a
    /// restore found it, with writers keeping their connections across it): it must then hold at least every
    /// transaction acknowledged before that moment, and be a prefix.
    public static func liveStoreUnaffected(_ matches: [Oracle.Match], oracle: Oracle, state: StoreState, crashed: Bool,
                                           readAt: Double? = nil) -> Verdict {
        var evidence: [String] = oracle.transactions.filter { $0.outcome == .failed }.prefix(10).map {
            "writer \($0.writer) tx \($0.seq) failed: \($0.error ?? "?")"
        }
        for match in matches {
            let sequence = oracle.sequence(of: match.writer)
            let committed = sequence.filter { $0.outcome == .committed }.count
            let before = readAt.map { at in sequence.filter { $0.outcome == .committed && ($0.ackAt ?? .infinity) < at }.count } ?? committed
            if before < committed {
                if (match.prefixes.max() ?? -1) < before {
                    evidence.append("writer \(match.writer): the live store does not hold the \(before) transactions it had acknowledged when the store was read")
                    evidence += match.mismatches
                }
            } else if !match.prefixes.contains(committed), !crashed || match.prefixes.isEmpty,
                      // A writer stopped during a transaction (a move stops the app first): that one may be in.
                      !(sequence.last?.outcome == .inFlight && match.prefixes.contains(committed + 1)) {
                evidence.append("writer \(match.writer): the live store does not hold its \(committed) committed transactions")
                evidence += match.mismatches
            }
        }
        evidence += oracle.strangers(state).map { "live store: \($0)" }
        if evidence.isEmpty { return Verdict("live-store-unaffected", .held, "writers saw no errors; the live store holds what they committed") }
        return Verdict("live-store-unaffected", .violated, "writers were affected", evidence: evidence)
    }

    /// `restore-equals-backup`: after a restore the live store equals the backup it came from.
    public static func restoreEqualsBackup(_ live: URL, backup: URL, label: String) -> Verdict {
        do {
            let report = try StoreComparison.compare(live, against: backup)
            if !report.hasViolations { return Verdict("restore-equals-backup", .held, "\(label): equal object by object and blob by blob") }
            return Verdict("restore-equals-backup", .violated, "\(label): differs from the backup", evidence: report.violations.prefix(12).map { "\(label): \($0)" })
        } catch {
            return Verdict("restore-equals-backup", .violated, "\(label): cannot compare", evidence: ["\(error)"])
        }
    }

    /// `restore-durable`: a restore that reported success, then a crash (power failure) right after: the live
    /// store recovered from what was durable must still equal the backup. A restore that never syncs what it
    /// wrote is undone by the crash, and the evidence says so.
    public static func restoreDurable(_ live: URL, backup: URL, crash: String, label: String) -> Verdict {
        let name = "restore-durable"
        do {
            // The comparison reads recovered private copies of both (`StoreSnapshot`): the crashed store is
            // judged as the next launch would find it, and left as the crash left it.
            let report = try StoreComparison.compare(live, against: backup)
            if !report.hasViolations { return Verdict(name, .held, "\(label): still equals the backup after the crash \(crash)") }
            return Verdict(name, .violated, "\(label): finished, then undone by the crash that followed it",
                           evidence: ["\(label): equal to the backup when it reported success; after the crash \(crash) the live store differs"]
                               + report.violations.prefix(10).map { "\(label) after the crash: \($0)" })
        } catch {
            return Verdict(name, .violated, "\(label): finished, then undone by the crash that followed it",
                           evidence: ["\(label): the live store cannot be read after the crash \(crash): \(error)"])
        }
    }

    /// `restore-equals-backup` for a restore a crash cut short: the recovered live store must be all or nothing,
    /// either the store as it was before the restore or the backup, never a mixture of the two.
    public static func interruptedRestoreAllOrNothing(_ live: URL, before: StoreState?, backup: StoreState?, label: String) -> Verdict {
        let name = "restore-equals-backup"
        guard let before, let backup else {
            return Verdict(name, .notApplicable, "\(label): no state before the restore or of the backup to compare with")
        }
        let after: StoreState
        do { after = try StoreState.read(live) } catch {
            return Verdict(name, .violated, "\(label): the live store cannot be read after the crash", evidence: ["\(label): \(error)"])
        }
        if after.digest == before.digest { return Verdict(name, .held, "\(label): cut short by the crash; the live store recovered whole as it was before the restore") }
        if after.digest == backup.digest { return Verdict(name, .held, "\(label): cut short by the crash after its commit; the live store equals the backup") }
        func count(_ state: StoreState) -> Int { state.notes.count + state.others.count }
        let fromBefore = after.notes.filter { before.notes[$0.key] == $0.value }.count + after.others.filter { before.others[$0.key] == $0.value }.count
        let fromBackup = after.notes.filter { backup.notes[$0.key] == $0.value }.count + after.others.filter { backup.others[$0.key] == $0.value }.count
        return Verdict(name, .violated, "\(label): cut short by the crash, the live store is a mixture of the old store and the backup",
                       evidence: ["\(label): \(count(after)) objects after recovery; \(fromBefore) as before the restore (\(count(before)) then), \(fromBackup) as in the backup (\(count(backup)))"])
    }

    /// `metadata-preserved`: the copy has the live store's model version hashes (and reports its store UUID).
    public static func metadataPreserved(_ copy: StoreState, live: StoreState, label: String) -> Verdict {
        if copy.versionHashes != live.versionHashes {
            return Verdict("metadata-preserved", .violated, "\(label): model version hashes differ from the live store's",
                           evidence: ["\(label): entities \(copy.versionHashes.keys.sorted()) vs \(live.versionHashes.keys.sorted())"])
        }
        let uuid = copy.storeUUID == live.storeUUID ? "same store UUID" : "new store UUID \(copy.storeUUID)"
        return Verdict("metadata-preserved", .held, "\(label): model hashes equal, \(uuid)")
    }
}
