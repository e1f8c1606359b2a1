import Checks
import Crypto
import FaultFS
import Foundation
import StoreModel
import Synchronization

/// Names a crash state by how it was built: the sequence numbers of the operations applied to the files at the
/// log mark, in order (the durable ones, then the kept ones), and the cut of a torn last write. The files are a
/// pure function of that sequence, so two states with the same key are the same bytes: the `prefix` of every
/// pending operation at one point is the `keep-none` state of the next point whose barrier synced them all.
///
/// `@unchecked Sendable`: the hasher is a value with copy-on-write storage (swift-crypto's digest context is
/// copied before a shared one is changed); a key is copied into each unit and never shared while it changes.
struct CrashStateKey: @unchecked Sendable {
    private var hasher = SHA256()

    static func hex(_ digest: Data) -> String { Hex.string(digest) }

    mutating func append(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { hasher.update(bufferPointer: $0) }
    }

    var digest: Data { Data(hasher.finalize()) }
}

/// Payloads of pending writes, read once from the op log's data sidecar (one open file, not one per read) and
/// kept while their write is pending: the variants of a point apply the same writes many times over.
struct CrashStatePayloads: Sendable {
    private let sidecar: FileHandle?
    private var cache: [UInt64: Data] = [:]

    init(log: URL) {
        sidecar = try? FileHandle(forReadingFrom: URL(fileURLWithPath: log.path + ".data"))
    }

    mutating func payload(of record: OpRecord) throws -> Data? {
        if let known = cache[record.seq] { return known }
        guard let offset = record.dataOffset, let length = record.length, let sidecar else { return nil }
        try sidecar.seek(toOffset: offset)
        let data = try sidecar.read(upToCount: Int(length)) ?? Data()
        cache[record.seq] = data
        return data
    }

    /// Forgets the payloads of writes no longer pending (synced into the durable files).
    mutating func keep(_ pending: [OpRecord]) {
        let seqs = Set(pending.map(\.seq))
        cache = cache.filter { seqs.contains($0.key) }
    }

    func close() { try? sidecar?.close() }
}

extension CrashStateEnumerator {
    /// What one worker of an enumeration keeps between states: the payloads of pending writes, and the one
    /// directory its states are written to in turn. Workers at once have directories of their own (`state`,
    /// `state-2`, ...); an examination names the state's files as if in `state`, whichever worker made it, so a
    /// state's messages are the same at any `--jobs`.
    struct CheckContext: Sendable {
        let directory: URL
        /// The directory every examination names (`state`).
        let named: URL
        var payloads: CrashStatePayloads
        private var linkedSupport = false
        private var overlay: CrashStateOverlay

        init(scratch: URL, number: Int, log: URL) throws {
            named = scratch.appendingPathComponent("state", isDirectory: true)
            directory = number == 1 ? named : scratch.appendingPathComponent("state-\(number)", isDirectory: true)
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            payloads = CrashStatePayloads(log: log)
            overlay = CrashStateOverlay(directory: directory)
        }

        /// Writes one state's files (and nothing else: whatever the last state left beside them is removed) and
        /// returns its database; the support folder is a link to the one every state shares.
        mutating func materialize(_ files: [String: Data], databaseName: String, supportFolder: URL?) throws -> URL {
            let database = directory.appendingPathComponent(String(databaseName.dropFirst()))
            overlay.invalidate()
            for suffix in ["", "-wal", "-journal", "-shm"] { unlink(database.path + suffix) }
            for (path, data) in files { try data.write(to: directory.appendingPathComponent(String(path.dropFirst()))) }
            try linkSupport(database, supportFolder)
            return database
        }

        /// Writes one state as the durable files (written once per durable version) with `kept` written over
        /// them in place; only for data operations (`CrashStateOverlay.applies`).
        mutating func overlay(_ durable: [String: Data], version: Data, kept: [OpRecord], tornCut: Int?,
                              enumerator: CrashStateEnumerator) throws -> URL {
            let database = directory.appendingPathComponent(String(enumerator.trackedPrefix.dropFirst()))
            try overlay.show(durable, version: version, databaseName: enumerator.trackedPrefix)
            try overlay.apply(kept, tornCut: tornCut, durable: durable, enumerator: enumerator, payloads: &payloads)
            try linkSupport(database, enumerator.supportFolder)
            return database
        }

        private mutating func linkSupport(_ database: URL, _ supportFolder: URL?) throws {
            guard let supportFolder, !linkedSupport else { return }
            try FileManager.default.createSymbolicLink(at: StoreFiles(database).supportFolder, withDestinationURL: supportFolder)
            linkedSupport = true
        }

        func examine(_ database: URL, oracle: Oracle) -> CrashStateExamination {
            let examination = CrashStateExamination.examine(database, oracle: oracle)
            return directory == named ? examination : examination.naming(directory.path, as: named.path)
        }

        func close() {
            payloads.close()
            try? FileManager.default.removeItem(at: directory)
        }
    }
}

/// The state directories of one enumeration, one per worker running at once: a unit borrows one for its
/// points and gives it back, so the directories are as many as the units that ever ran together.
final class CrashStateContexts: Sendable {
    private let free = Mutex<(idle: [CrashStateEnumerator.CheckContext], made: Int)>(([], 0))
    let scratch: URL
    let log: URL

    init(scratch: URL, log: URL) {
        self.scratch = scratch
        self.log = log
    }

    func borrow<T>(_ body: (inout CrashStateEnumerator.CheckContext) throws -> T) throws -> T {
        let (idle, number): (CrashStateEnumerator.CheckContext?, Int) = free.withLock { free in
            if let context = free.idle.popLast() { return (context, 0) }
            free.made += 1
            return (nil, free.made)
        }
        var context = try idle ?? CrashStateEnumerator.CheckContext(scratch: scratch, number: number, log: log)
        defer { free.withLock { $0.idle.append(context) } }
        return try body(&context)
    }

    /// Closes every directory (once no unit runs).
    func close() {
        free.withLock { free in
            for context in free.idle { context.close() }
            free.idle = []
        }
    }
}
