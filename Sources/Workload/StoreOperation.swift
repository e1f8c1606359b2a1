import Foundation
import GRDB
import StoreModel

/// One operation on the live store from a connection of its own, run as a child process of the run while the
/// writers write (`schedule:` entries `checkpoint`, `vacuum`, `bulk-delete`): what another part of an app, a
/// maintenance task or a second process does to the same store. It prints one JSON line (`Result`).
///
/// A bulk delete removes objects of the initial store (the writers never touch those), so that the oracle can
/// hold it as one more history: it is recorded like a writer's transaction, intent before and ack after, in a
/// history file of its own beside the writers'.
public struct StoreOperation: Sendable {
    public struct Configuration: Sendable, Codable {
        public var store: String
        /// `checkpoint`, `vacuum`, `bulk-delete` or `cleanup` (seed 002's cleanup of a moved store's old files).
        public var operation: String
        /// cleanup: the name the companions' names are built from (`<container>.sqlite-wal`, ...).
        public var containerName: String?
        /// checkpoint: PASSIVE, FULL, RESTART or TRUNCATE.
        public var mode: String?
        /// bulk-delete: the notes that may be deleted, in the order to take them (the runner draws it from the
        /// seed), how many to delete, and the history file and writer number to record the transaction under.
        public var candidates: [UUID] = []
        public var count = 0
        public var history: String?
        public var index = 0
        /// PRAGMA synchronous of the operation's connection.
        public var synchronous = "full"
        public var journalMode = "wal"
        /// Seconds the connection waits on a lock (SQLite's busy timeout); nil: the store's default (30 s). A
        /// checkpoint made while a program's call is held (`while_held`) waits briefly: the program may hold the
        /// very lock it needs, and SQLite then reports the checkpoint busy.
        public var busyTimeout: Double?
        public var epoch: Double

        public init(store: String, operation: String, epoch: Double) {
            self.store = store
            self.operation = operation
            self.epoch = epoch
        }
    }

    /// What the operation did: for a checkpoint SQLite's three numbers (busy, frames in the -wal, frames
    /// checkpointed); page counts before and after for a vacuum; objects deleted for a bulk delete.
    public struct Result: Sendable, Codable {
        public var operation: String
        public var details: [String: String]
    }

    public let configuration: Configuration

    public init(_ configuration: Configuration) { self.configuration = configuration }

    public func run() throws -> Result {
        let c = configuration
        var options = StoreOptions()
        options.synchronous = StoreOptions.Synchronous(rawValue: c.synchronous) ?? .full
        options.journalMode = StoreOptions.JournalMode(rawValue: c.journalMode) ?? .wal
        options.syncExternalFiles = options.synchronous == .full || options.synchronous == .extra
        if let timeout = c.busyTimeout { options.busyTimeout = timeout }
        let model = ManagedObjectModel.appModel(for: URL(fileURLWithPath: c.store), fallback: .library)
        if c.operation == "cleanup" {
            // No connection of its own: the cleanup destroys the store through a coordinator that has not loaded it.
            let old = URL(fileURLWithPath: c.store)
            let leftovers = try OldStoreCleanup.run(old, containerName: c.containerName ?? old.deletingPathExtension().lastPathComponent,
                                                    coordinator: PersistentStoreCoordinator(model: model))
            return Result(operation: "cleanup", details: ["leftovers": leftovers.joined(separator: " ")])
        }
        let store = try PersistentStore(at: URL(fileURLWithPath: c.store), model: model, options: options)
        defer { try? store.close() }
        switch c.operation {
        case "checkpoint":
            let mode = (c.mode ?? "PASSIVE").uppercased()
            let result = try store.checkpoint(mode)
            return Result(operation: "checkpoint", details: ["mode": mode, "busy": String(result.busy), "log": String(result.log),
                                                             "checkpointed": String(result.checkpointed)])
        case "vacuum":
            let before = try pageCount(store)
            try store.withConnection { try $0.execute(sql: "VACUUM") }
            let after = try pageCount(store)
            return Result(operation: "vacuum", details: ["pagesBefore": String(before), "pagesAfter": String(after)])
        case "bulk-delete":
            guard let path = c.history else { throw StoreError.invalidObject("bulk-delete needs a history file") }
            let history = try HistoryWriter(URL(fileURLWithPath: path))
            let present = Set(try store.objects("Note").map(\.id))
            let deletions = c.candidates.filter { present.contains($0) }.prefix(c.count)
                .map { HistoryOp(op: "delete", entity: "Note", id: $0, hash: nil) }
            try history.append(HistoryRecord(writer: c.index, seq: 1, state: .intent, t: now(), ops: Array(deletions)))
            do {
                try store.save { context in
                    for op in deletions { try context.delete(entity: op.entity, id: op.id) }
                }
            } catch {
                try history.append(HistoryRecord(writer: c.index, seq: 1, state: .failed, t: now(), error: "\(error)"))
                throw error
            }
            try history.append(HistoryRecord(writer: c.index, seq: 1, state: .ack, t: now()))
            try history.append(HistoryRecord(writer: c.index, seq: 2, state: .done, t: now()))
            return Result(operation: "bulk-delete", details: ["deleted": String(deletions.count)])
        default:
            throw StoreError.invalidObject("unknown store operation '\(c.operation)'")
        }
    }

    func pageCount(_ store: PersistentStore) throws -> Int {
        try store.withConnection { try Int.fetchOne($0, sql: "PRAGMA page_count") ?? 0 }
    }

    func now() -> Double { Date().timeIntervalSince1970 - configuration.epoch }
}
