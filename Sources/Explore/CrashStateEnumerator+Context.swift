import Checks
import Crypto
import FaultFS
import Foundation
import StoreModel

/// Names a crash state by how it was built: the sequence numbers of the operations applied to the files at the
/// log mark, in order (the durable ones, then the kept ones), and the cut of a torn last write. The files are a
/// pure function of that sequence, so two states with the same key are the same bytes: the `prefix` of every
/// pending operation at one point is the `keep-none` state of the next point whose barrier synced them all.
struct CrashStateKey {
    private var hasher = SHA256()

    mutating func append(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { hasher.update(bufferPointer: $0) }
    }

    var digest: Data { Data(hasher.finalize()) }
}

/// Payloads of pending writes, read once from the op log's data sidecar (one open file, not one per read) and
/// kept while their write is pending: the variants of a point apply the same writes many times over.
struct CrashStatePayloads {
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
    /// What one enumeration keeps between states: the examinations already made, the payloads of pending writes,
    /// and the one directory every state is written to in turn (so a state's messages name the same path whether
    /// it was examined or reused).
    struct CheckContext {
        let reuse: Bool
        let directory: URL
        var payloads: CrashStatePayloads
        var bySequence: [Data: CrashStateExamination] = [:]
        var byContent: [String: CrashStateExamination] = [:]
        private var acknowledged: CrashStateAcknowledgements?
        private var linkedSupport = false
        private var overlay: CrashStateOverlay

        init(scratch: URL, reuse: Bool, log: URL) throws {
            self.reuse = reuse
            directory = scratch.appendingPathComponent("state", isDirectory: true)
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            payloads = CrashStatePayloads(log: log)
            overlay = CrashStateOverlay(directory: directory)
        }

        mutating func acknowledgements(_ oracle: Oracle) -> CrashStateAcknowledgements {
            if let acknowledged { return acknowledged }
            let made = CrashStateAcknowledgements(oracle)
            acknowledged = made
            return made
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
            CrashStateExamination.examine(database, oracle: oracle)
        }

        func close() {
            payloads.close()
            try? FileManager.default.removeItem(at: directory)
        }
    }
}
