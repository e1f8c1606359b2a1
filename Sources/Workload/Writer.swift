import Foundation
import SeededRandomness
import StoreModel

/// One writer process: commits transactions against the live store through the store layer and records each
/// in its history (intent before, ack after). Writers only change notes they inserted themselves and only link
/// to the folders and tags of the initial store, so each writer's history alone determines its objects' states.
public struct Writer: Sendable {
    public struct Configuration: Sendable, Codable {
        public var store: String
        public var history: String
        public var index: Int
        public var seed: UInt64
        public var transactions: Int
        public var rate: Double
        public var mix: [Int]
        public var blobFraction: Double
        public var blobSize: Int
        public var synchronous: String
        public var checkpoint: String
        /// Unix time of the run's start; history times are relative to it.
        public var epoch: Double
        public var journalMode = "wal"
        /// In turns mode: a FIFO the writer reads one byte from before each transaction (its turn).
        public var turns: String?
        /// Seconds obsolete external data files outlive their save (nil: the store layer's default).
        public var externalDataGracePeriod: Double?
        /// fsync new external data files before the commit (Core Data does not; off unless the scenario asks).
        public var syncExternalData = false
        /// The run starts with no store (`store.fresh`): the writer's open creates it, so it is the harness's own
        /// model whatever the file looks like yet (missing, 0 bytes, or another writer's half-made schema).
        public var createsStore = false
        /// Where the runner asks this writer to migrate its store on its own coordinator (`InAppMigrate`).
        public var inAppMigrateRequest: String?

        public init(store: String, history: String, index: Int, seed: UInt64, transactions: Int, rate: Double, mix: [Int],
                    blobFraction: Double, blobSize: Int, synchronous: String, checkpoint: String, epoch: Double) {
            self.store = store
            self.history = history
            self.index = index
            self.seed = seed
            self.transactions = transactions
            self.rate = rate
            self.mix = mix
            self.blobFraction = blobFraction
            self.blobSize = blobSize
            self.synchronous = synchronous
            self.checkpoint = checkpoint
            self.epoch = epoch
        }
    }

    public let configuration: Configuration

    public init(_ configuration: Configuration) { self.configuration = configuration }

    /// Runs every transaction; returns how many committed. Errors of single saves are recorded, not thrown.
    public func run() throws -> Int {
        let c = configuration
        if !c.createsStore, try StoreKind.of(URL(fileURLWithPath: c.store)) == .layout { return try LayoutWriter(configuration: c).run() }
        var options = StoreOptions()
        options.synchronous = StoreOptions.Synchronous(rawValue: c.synchronous) ?? .full
        options.journalMode = StoreOptions.JournalMode(rawValue: c.journalMode) ?? .wal
        options.syncExternalFiles = c.syncExternalData
        if let grace = c.externalDataGracePeriod { options.externalDataGracePeriod = grace }
        let model = ManagedObjectModel.appModel(for: URL(fileURLWithPath: c.store), fallback: .library)
        // The app's coordinator: a migrate on it (`InAppMigrate`) swaps the store its saves go to for the copy.
        let coordinator = PersistentStoreCoordinator(model: model)
        let store = try coordinator.addStore(at: URL(fileURLWithPath: c.store), options: options)
        // The store the app's saves go to: the copy after a migrate on this coordinator, none once the app
        // removed the copy (`saves_after_migrate: fail`).
        var current: PersistentStore? = store
        defer { for loaded in coordinator.stores { try? coordinator.remove(loaded) } }
        switch c.checkpoint {
        case "none": try store.withConnection { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        case "frequent": try store.withConnection { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 16") }
        default: break
        }
        let history = try HistoryWriter(URL(fileURLWithPath: c.history))
        let folders = try store.objects("Folder").map(\.id)
        let tags = try store.objects("Tag").map(\.id)
        var random = SeededRandom(seed: c.seed)
        var mine: [UUID: ManagedObject] = [:]
        var order: [UUID] = []
        var committed = 0
        let pacer = TransactionPacer(turnsFIFO: c.turns, rate: c.rate)
        for seq in 1...max(1, c.transactions) where c.transactions > 0 {
            guard pacer.awaitTurn(seq) else { break }
            if let loaded = current {
                current = try InAppMigrate.serve(c.inAppMigrateRequest, store: loaded, coordinator: coordinator, options: options, now: now)
            }
            var change = nextChange(&random, mine: mine, order: order, folders: folders, tags: tags, seq: seq,
                                    items: model.hierarchyEntities)
            guard let store = current else {
                // No store in the app's coordinator: Core Data's save raises NSInternalInconsistencyException; the app
                // is told its save failed, and nothing is acknowledged.
                let ops = [HistoryOp(op: change.op, entity: change.object.entity, id: change.object.id,
                                     hash: change.op == "delete" ? nil : ObjectHash.of(change.object))]
                try history.append(HistoryRecord(writer: c.index, seq: seq, state: .intent, t: now(), ops: ops))
                try history.append(HistoryRecord(writer: c.index, seq: seq, state: .failed, t: now(), error: "\(StoreError.noPersistentStores)"))
                continue
            }
            if change.op != "insert", change.op != "delete" {
                change = try withStoredExternalData(change, store: store, model: model)
            }
            let ops = [HistoryOp(op: change.op, entity: change.object.entity, id: change.object.id,
                                 hash: change.op == "delete" ? nil : ObjectHash.of(change.object))]
            try history.append(HistoryRecord(writer: c.index, seq: seq, state: .intent, t: now(), ops: ops))
            do {
                try store.save { context in
                    switch change.op {
                    case "insert": try context.insert(change.object)
                    case "delete": try context.delete(entity: change.object.entity, id: change.object.id)
                    default: try context.update(change.write)
                    }
                }
                try history.append(HistoryRecord(writer: c.index, seq: seq, state: .ack, t: now()))
                committed += 1
                if change.op == "delete" {
                    mine[change.object.id] = nil
                    order.removeAll { $0 == change.object.id }
                } else {
                    if mine[change.object.id] == nil { order.append(change.object.id) }
                    mine[change.object.id] = change.object
                }
                if c.checkpoint == "truncate" { _ = try? store.checkpoint("TRUNCATE") }
            } catch {
                Self.abortOnInterimFailure(error)
                try history.append(HistoryRecord(writer: c.index, seq: seq, state: .failed, t: now(), error: "\(error)"))
            }
        }
        try history.append(HistoryRecord(writer: c.index, seq: c.transactions + 1, state: .done, t: now()))
        return committed
    }

    func now() -> Double { Date().timeIntervalSince1970 - configuration.epoch }

    /// An app fetches the object before it changes it: where an external data file it refers to is gone, the
    /// attribute reads as nil (as Core Data materialises it), and the app's save writes that nil back. The change
    /// then sets the attribute to nil unless it sets a new value, and the expected state says so too.
    func withStoredExternalData(_ change: Change, store: PersistentStore, model: ManagedObjectModel) throws -> Change {
        guard let entity = model.entity(named: change.object.entity),
              entity.attributes.contains(where: \.allowsExternalStorage),
              let stored = try store.object(change.object.entity, id: change.object.id)
        else { return change }
        var result = change
        for attribute in entity.attributes where attribute.allowsExternalStorage {
            guard change.object.attributes[attribute.name] != nil, stored.attributes[attribute.name] == nil,
                  change.write.attributes[attribute.name] == nil
            else { continue }
            result.object.attributes[attribute.name] = nil
            result.write.attributes[attribute.name] = .null
        }
        return result
    }

    /// Core Data raises an exception when it cannot write an external data file's interim file (ENOSPC among
    /// others) and the app aborts: the transaction stays an intent with no ack, and the writer process ends
    /// with the status a shell reports for SIGABRT.
    static func abortOnInterimFailure(_ error: any Error) {
        guard let error = error as? StoreError, case .interimFileFailed = error else { return }
        FileHandle.standardError.write(Data("*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: '\(error)'\n".utf8))
        exit(134)
    }

    /// A change: the operation, the object's full state after it, and what to write (updates name only what changes).
    struct Change {
        var op: String
        var object: ManagedObject
        var write: ManagedObject
    }

    /// `items` are the entities of the model's hierarchy (empty without inheritance): where there are some, a
    /// third of the inserts are objects of them, which later changes update or delete like notes.
    func nextChange(_ random: inout SeededRandom, mine: [UUID: ManagedObject], order: [UUID], folders: [UUID], tags: [UUID], seq: Int,
                    items: [String] = []) -> Change {
        let c = configuration
        let weights = c.mix.count == 4 ? c.mix : [50, 30, 10, 10]
        var roll = Int(random.next() % UInt64(max(1, weights.reduce(0, +))))
        var op = "insert"
        for (name, weight) in zip(["insert", "update", "delete", "link"], weights) {
            if roll < weight { op = name; break }
            roll -= weight
        }
        if order.isEmpty { op = "insert" }
        let attachment: AttributeValue? = Double(random.next() % 10_000) / 10_000 < c.blobFraction
            ? .binary(Data(random.bytes(c.blobSize))) : nil
        if let change = itemChange(op, &random, mine: mine, order: order, seq: seq, items: items) { return change }
        // With a hierarchy, notes are changed only as notes: the ids below are those of notes.
        let order = items.isEmpty ? order : order.filter { mine[$0]?.entity == "Note" }
        if order.isEmpty { op = "insert" }
        switch op {
        case "insert":
            var note = StoreGenerator.note(serial: c.index * 1_000_000 + seq, random: &random, folders: folders, tags: tags)
            note.attributes["title"] = .string("w\(c.index)-\(seq)")
            if let attachment { note.attributes["attachment"] = attachment }
            return Change(op: op, object: note, write: note)
        case "update":
            let id = order[Int(random.next() % UInt64(order.count))]
            var after = mine[id]!
            var write = ManagedObject(entity: "Note", id: id)
            write.attributes["title"] = .string("w\(c.index)-\(seq) edited")
            write.attributes["views"] = .integer(Int64(random.next() % 100_000))
            if let attachment { write.attributes["attachment"] = attachment }
            for (key, value) in write.attributes { after.attributes[key] = value }
            return Change(op: op, object: after, write: write)
        case "delete":
            let id = order[Int(random.next() % UInt64(order.count))]
            return Change(op: op, object: mine[id]!, write: mine[id]!)
        default:
            let id = order[Int(random.next() % UInt64(order.count))]
            var after = mine[id]!
            var write = ManagedObject(entity: "Note", id: id)
            if !folders.isEmpty {
                let folder = folders[Int(random.next() % UInt64(folders.count))]
                write.toOne["folder"] = folder
                after.toOne["folder"] = folder
            }
            let chosen = tags.isEmpty ? [] : Array(Set((0..<Int(random.next() % 3)).map { _ in tags[Int(random.next() % UInt64(tags.count))] }))
                .sorted { $0.uuidString < $1.uuidString }
            write.toMany["tags"] = chosen
            after.toMany["tags"] = chosen
            return Change(op: "link", object: after, write: write)
        }
    }
}
