import Foundation

/// The power failure of a run: when, what it dropped, and the live store as the next launch finds it.
public struct CrashRecord: Sendable, Codable {
    /// Run clock.
    public var at: Double
    /// "crash (keep-none) during backup-0, 0.250 s in: dropped 12 operation(s)".
    public var description: String
    /// The live store read back from a recovered private copy; nil when a restore of the round came first (the
    /// restore's own checks judge the store then).
    public var live: StoreMeasurement?
    /// What the crash dropped of the live store's files, from the op log.
    public var liveLoss: LossRecord?
    /// Each external data file the live store names but lacks after the crash (by file name), with the
    /// operation that took it: a dropped create or rename, or an unlink that came before the commit that would
    /// have stopped naming it (Core Data deletes an attachment's old file inside the save).
    public var missingExternalFiles: [String: LossRecord.Operation] = [:]

    public init(at: Double, description: String, live: StoreMeasurement?, liveLoss: LossRecord?) {
        self.at = at
        self.description = description
        self.live = live
        self.liveLoss = liveLoss
    }

    /// The live store read again with every attachment file the app's own unsynced operations touched counted
    /// as missing (compared by presence only): what the program's invariants judge, so a change of data that
    /// only the app's own lost writes explain is `app-durable`'s, never the program's. Nil when the crash took
    /// no such file.
    public var liveWithoutAppsLosses: Measured<StoreState>?

    /// The missing external files the app's own operations took (its writers', never synced or deleted early).
    public var appsMissingExternalFiles: Set<String> {
        Set(missingExternalFiles.filter { $0.value.kind == .app }.keys)
    }
}

/// Who a process of the run is, for attributing a loss: the program or step under test, the app (its writers
/// and readers: Core Data's own behaviour), the harness, or a process nobody started.
public enum ActorKind: String, Sendable, Codable {
    /// A backup, restore, relocation or sync step, or a sidecar: what the scenario tests.
    case program
    /// The app: writer and reader processes, Core Data's own saves and their external data files.
    case app
    /// Lifeboat itself; a loss of the harness's making is a bug of Lifeboat's.
    case harness
    case unknown

    /// The kind of a child named as the runner names them. The app's own store operations (its checkpoint,
    /// vacuum or batch delete, `checkpoint-N` and the like) are the app's.
    public static func of(actor name: String) -> ActorKind {
        let app = ["writer-", "reader-", "checkpoint-", "vacuum-", "bulk-delete-"]
        if app.contains(where: { name.hasPrefix($0) }) { return .app }
        if name == "the runner" { return .harness }
        let programs = ["backup-", "restore-", "relocate-", "sync-", "sidecar-"]
        if programs.contains(where: { name.hasPrefix($0) }) { return .program }
        return .unknown
    }
}

/// What a crash took away under one store's files, each operation with its actor and the barrier that never
/// came, from the op log (`CrashLoss`); `cause` is the sentence a finding quotes.
public struct LossRecord: Sendable, Codable, Equatable {
    public struct Operation: Sendable, Codable, Equatable {
        /// "rename /.Library_SUPPORT/_EXTERNAL_DATA/1A.interim -> /.Library_SUPPORT/_EXTERNAL_DATA/1A".
        public var what: String
        public var path: String
        /// "writer-1", "backup-0 (cp)", or the command and pid of a process the run did not start.
        public var actor: String?
        public var kind: ActorKind
        /// "never": no fsync came; "lied" or "failed": one came and a fault rule made it lie or fail (the
        /// environment under test, not the actor's own doing); "deleted": an unlink that happened (the file is
        /// gone because its actor removed it, not because a crash dropped anything).
        public var barrier: String

        public init(what: String, path: String, actor: String?, kind: ActorKind, barrier: String) {
            self.what = what
            self.path = path
            self.actor = actor
            self.kind = kind
            self.barrier = barrier
        }
    }

    public var operations: [Operation]
    /// The finding's cause: the most telling lost operations, the crash, and what that did to the store.
    public var cause: String

    public init(operations: [Operation], cause: String) {
        self.operations = operations
        self.cause = cause
    }

    /// The app's operations the crash dropped, never synced.
    public var appOperations: [Operation] { operations.filter { $0.kind == .app && $0.barrier == "never" } }

    /// The attachment files those operations wrote, created or renamed into place (an interim file by the name
    /// it was to be renamed to).
    public var appsExternalFiles: Set<String> {
        var names = Set<String>()
        for operation in appOperations {
            for path in [operation.path, operation.what.components(separatedBy: " -> ").last ?? ""] where path.contains("/_EXTERNAL_DATA/") {
                var name = String(path.split(separator: "/").last ?? "")
                if name.hasSuffix(".interim") { name = String(name.dropLast(".interim".count)) }
                if !name.isEmpty { names.insert(name) }
            }
        }
        return names
    }
}
