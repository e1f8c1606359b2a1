import Foundation

/// A deterministic stand-in for one CloudKit record zone (docs/cloudkit.md), kept in a directory outside the
/// store's volume, in files a person can read:
///
/// - `zone.json`: the zone's name, the account status (`available` or `unavailable`: signed out of iCloud) and
///   the server change counter;
/// - `records/<record name>.json`: one record each: its name, type (entity), the counter of its last change, and
///   the object it carries;
/// - `changes.jsonl`: one line per change (save or delete) with its counter: what "fetch changes since a token"
///   reads;
/// - `assets/<sha256>`: the data of every asset a record refers to (external data, `CloudKitAssets`), kept apart
///   from the records as CloudKit keeps them;
/// - `mirror.log`: what every mirror that used the zone did, retries of a setup that cannot complete included.
///
/// Every change takes the directory's lock (`flock` on `.lock`), so mirrors of several stores (two devices) can
/// share one zone.
public struct CloudKitZone: Sendable {
    public let directory: URL

    public enum Account: String, Sendable, Codable { case available, unavailable }

    public struct State: Sendable, Codable, Equatable {
        public var zone = CloudKitMirroring.zoneName
        public var account = Account.available
        public var serverChangeCounter: Int64 = 0
        public init() {}
    }

    /// One record as the zone keeps it.
    public struct Record: Sendable, Codable, Equatable {
        public var recordName: String
        public var recordType: String
        public var changeCounter: Int64
        /// The object's values; relationships name their targets by identity (see docs/cloudkit.md). Read through
        /// `records()` or `record(named:)`, each asset's data is back in its attribute (when the zone has it).
        public var object: ManagedObject
        /// Attributes whose value is an asset (external data), by attribute name; nil when there are none.
        public var assets: [String: CloudKitAssets.Asset]? = nil
    }

    public struct Change: Sendable, Codable, Equatable {
        public enum Kind: String, Sendable, Codable { case save, delete }
        public var counter: Int64
        public var recordName: String
        public var kind: Kind
    }

    public init(_ directory: URL) { self.directory = directory }

    var stateFile: URL { directory.appendingPathComponent("zone.json") }
    var recordsDirectory: URL { directory.appendingPathComponent("records") }
    var changesFile: URL { directory.appendingPathComponent("changes.jsonl") }
    var assetsDirectory: URL { directory.appendingPathComponent("assets") }
    public func assetFile(_ asset: CloudKitAssets.Asset) -> URL { assetsDirectory.appendingPathComponent(asset.hash) }
    public var logFile: URL { directory.appendingPathComponent("mirror.log") }

    /// Creates an empty zone (or keeps the one there), with the account status given.
    @discardableResult
    public static func create(at directory: URL, account: Account = .available) throws -> CloudKitZone {
        let zone = CloudKitZone(directory)
        try FileManager.default.createDirectory(at: zone.recordsDirectory, withIntermediateDirectories: true)
        try zone.locked {
            var state = (try? zone.readState()) ?? State()
            state.account = account
            try zone.writeState(state)
            if !FileManager.default.fileExists(atPath: zone.changesFile.path) { try Data().write(to: zone.changesFile) }
        }
        return zone
    }

    /// Whether `directory` holds a zone.
    public var exists: Bool { FileManager.default.fileExists(atPath: stateFile.path) }

    public func readState() throws -> State {
        do {
            return try JSONDecoder().decode(State.self, from: Data(contentsOf: stateFile))
        } catch {
            throw StoreError.io("\(directory.path) is not a cloud zone (zone.json: \(error.localizedDescription))")
        }
    }

    func writeState(_ state: State) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(state).write(to: stateFile, options: .atomic)
    }

    /// Runs `body` holding the zone's lock.
    public func locked<T>(_ body: () throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let fd = open(directory.appendingPathComponent(".lock").path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StoreError.io("cannot open the zone lock in \(directory.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw StoreError.io("cannot lock the zone \(directory.path): \(String(cString: strerror(errno)))") }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    func recordFile(_ name: String) -> URL { recordsDirectory.appendingPathComponent(name + ".json") }

    /// Every record, by name.
    public func records() throws -> [Record] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: recordsDirectory.path)) ?? []
        return try names.filter { $0.hasSuffix(".json") }.sorted().map { name in
            materialized(try JSONDecoder().decode(Record.self, from: Data(contentsOf: recordsDirectory.appendingPathComponent(name))))
        }
    }

    public func record(named name: String) throws -> Record? {
        let file = recordFile(name)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        return materialized(try JSONDecoder().decode(Record.self, from: Data(contentsOf: file)))
    }

    /// The record with each asset's data back in its attribute, as a fetch returns it; an asset the zone does not
    /// hold leaves its attribute out (and stays listed in `assets`).
    func materialized(_ record: Record) -> Record {
        var result = record
        for (attribute, asset) in record.assets ?? [:] {
            if let data = try? Data(contentsOf: assetFile(asset)) { result.object.attributes[attribute] = .binary(data) }
        }
        return result
    }

    /// Every change after `counter`, in order.
    public func changes(after counter: Int64) throws -> [Change] {
        let text = (try? String(contentsOf: changesFile, encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").compactMap { line -> Change? in
            let change = try JSONDecoder().decode(Change.self, from: Data(line.utf8))
            return change.counter > counter ? change : nil
        }
    }

    /// One record to save: its object without its assets' values, and the staged file of each asset.
    struct Save {
        var name: String
        var object: ManagedObject
        var assets: [String: (asset: CloudKitAssets.Asset, staged: URL)] = [:]
    }

    /// Saves (creates or overwrites) records and deletes others, one counter value per change; the caller holds
    /// the lock. Each asset is uploaded from its staged file, which goes once the zone holds the asset. Returns
    /// the counter reached.
    func apply(saves: [Save], deletes: [String]) throws -> Int64 {
        var state = try readState()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var lines = ""
        for save in saves {
            for (_, upload) in save.assets where !FileManager.default.fileExists(atPath: assetFile(upload.asset).path) {
                try FileManager.default.createDirectory(at: assetsDirectory, withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: upload.staged, to: assetFile(upload.asset))
            }
            for (_, upload) in save.assets { try? FileManager.default.removeItem(at: upload.staged) }
            state.serverChangeCounter += 1
            let assets = save.assets.isEmpty ? nil : save.assets.mapValues { $0.asset }
            let record = Record(recordName: save.name, recordType: "CD_" + save.object.entity, changeCounter: state.serverChangeCounter,
                                object: save.object, assets: assets)
            try encoder.encode(record).write(to: recordFile(save.name), options: .atomic)
            lines += String(decoding: try encoder.encode(Change(counter: state.serverChangeCounter, recordName: save.name, kind: .save)), as: UTF8.self) + "\n"
        }
        for name in deletes {
            state.serverChangeCounter += 1
            try? FileManager.default.removeItem(at: recordFile(name))
            lines += String(decoding: try encoder.encode(Change(counter: state.serverChangeCounter, recordName: name, kind: .delete)), as: UTF8.self) + "\n"
        }
        if !lines.isEmpty {
            let handle = try FileHandle(forWritingTo: changesFile)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(lines.utf8))
        }
        try writeState(state)
        return state.serverChangeCounter
    }

    /// Appends one line to the zone's mirror log.
    public func log(_ line: String) {
        let text = String(format: "%.3f ", Date().timeIntervalSince1970) + line + "\n"
        if let handle = try? FileHandle(forWritingTo: logFile) {
            defer { try? handle.close() }
            _ = try? handle.seekToEnd()
            try? handle.write(contentsOf: Data(text.utf8))
        } else {
            try? Data(text.utf8).write(to: logFile)
        }
    }

    /// The zone as text: its state, then one line per record (name, type, counter, identity, attributes).
    public func describe() throws -> String {
        let state = try readState()
        var lines = ["zone \(state.zone): account \(state.account.rawValue), server change counter \(state.serverChangeCounter)"]
        let records = try records()
        lines.append("\(records.count) record(s)")
        for record in records.sorted(by: { ($0.changeCounter, $0.recordName) < ($1.changeCounter, $1.recordName) }) {
            let title = record.object.attributes["title"] ?? record.object.attributes["name"]
            let shown = title.map { value -> String in
                if case .string(let text) = value { return " \"\(text)\"" }
                return ""
            } ?? ""
            let assets = (record.assets ?? [:]).sorted { $0.key < $1.key }.map { " \($0.key): asset \($0.value.short) (\($0.value.size) bytes)" }.joined()
            lines.append("  \(record.recordName)  \(record.recordType)  #\(record.changeCounter)  id \(record.object.id.uuidString)\(shown)\(assets)")
        }
        let identities = Dictionary(grouping: records, by: { "\($0.object.entity) \($0.object.id.uuidString)" }).filter { $0.value.count > 1 }
        if !identities.isEmpty {
            lines.append("\(identities.count) identit(ies) held by more than one record (duplicates)")
        }
        return lines.joined(separator: "\n")
    }
}
