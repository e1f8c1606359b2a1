import Foundation

/// One line of a writer's history file (JSON Lines), kept outside the store's file system so a crash of the
/// store cannot touch it: the oracle every invariant is checked against.
///
/// A transaction is written as `intent` before the save and `ack` after the commit returned; `failed` when the
/// save threw. An intent with neither is a transaction in flight when the writer died: it may or may not be in
/// the store.
public struct HistoryRecord: Sendable, Codable, Equatable {
    public enum State: String, Sendable, Codable { case intent, ack, failed, done }

    public var writer: Int
    public var seq: Int
    public var state: State
    /// Seconds since the run's epoch (shared by every process of the run).
    public var t: Double
    /// On `intent`: what the transaction does.
    public var ops: [HistoryOp]?
    public var error: String?
    /// On `ack`: SQLITE_BUSY waits the save went through.
    public var busy: Int?

    public init(writer: Int, seq: Int, state: State, t: Double, ops: [HistoryOp]? = nil, error: String? = nil, busy: Int? = nil) {
        self.writer = writer
        self.seq = seq
        self.state = state
        self.t = t
        self.ops = ops
        self.error = error
        self.busy = busy
    }
}

/// One object change: the object's identity and the hash of its state after the change (nil once deleted).
public struct HistoryOp: Sendable, Codable, Equatable {
    public var op: String
    public var entity: String
    public var id: UUID
    public var hash: String?

    public init(op: String, entity: String, id: UUID, hash: String?) {
        self.op = op
        self.entity = entity
        self.id = id
        self.hash = hash
    }
}

/// A transaction as the oracle sees it, assembled from its records.
public struct Transaction: Sendable, Equatable, Codable {
    public enum Outcome: String, Sendable, Codable { case committed, failed, inFlight = "in-flight" }
    public var writer: Int
    public var seq: Int
    public var ops: [HistoryOp]
    public var intentAt: Double
    public var ackAt: Double?
    public var outcome: Outcome
    public var error: String?

    public init(writer: Int, seq: Int, ops: [HistoryOp], intentAt: Double, ackAt: Double?, outcome: Outcome, error: String?) {
        self.writer = writer
        self.seq = seq
        self.ops = ops
        self.intentAt = intentAt
        self.ackAt = ackAt
        self.outcome = outcome
        self.error = error
    }
}

/// Appends records to a history file with one write(2) per line, so a killed writer leaves whole lines.
public final class HistoryWriter {
    let fd: Int32
    let encoder = JSONEncoder()

    public init(_ url: URL) throws {
        fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        encoder.outputFormatting = .sortedKeys
    }

    deinit { close(fd) }

    public func append(_ record: HistoryRecord) throws {
        var line = try encoder.encode(record)
        line.append(0x0A)
        let written = line.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        guard written == line.count else { throw CocoaError(.fileWriteUnknown) }
    }
}

/// Reads history files; tolerates a torn last line (a writer killed mid-write).
public enum HistoryReader {
    public static func records(_ url: URL) -> [HistoryRecord] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: 0x0A).compactMap { try? decoder.decode(HistoryRecord.self, from: Data($0)) }
    }

    /// Every transaction of every history file in `directory`, by writer then sequence.
    public static func transactions(in directory: URL) -> [Transaction] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".jsonl") }.sorted()
        var result: [Transaction] = []
        for file in files {
            var bySeq: [Int: Transaction] = [:]
            for record in records(directory.appendingPathComponent(file)) {
                switch record.state {
                case .intent:
                    bySeq[record.seq] = Transaction(writer: record.writer, seq: record.seq, ops: record.ops ?? [], intentAt: record.t,
                                                    ackAt: nil, outcome: .inFlight, error: nil)
                case .ack:
                    bySeq[record.seq]?.ackAt = record.t
                    bySeq[record.seq]?.outcome = .committed
                case .failed:
                    bySeq[record.seq]?.outcome = .failed
                    bySeq[record.seq]?.error = record.error
                case .done:
                    break
                }
            }
            result += bySeq.values.sorted { $0.seq < $1.seq }
        }
        return result
    }

    static let ackMarker = Data(#""state":"ack""#.utf8)

    /// Number of `ack` lines so far, every file read whole (`AcknowledgementCounter` counts the same as the files
    /// grow, reading only what was appended).
    public static func acknowledged(in directory: URL) -> Int {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".jsonl") }
        var count = 0
        for file in files {
            guard let data = try? Data(contentsOf: directory.appendingPathComponent(file)) else { continue }
            count += data.split(separator: 0x0A).count { Data($0).range(of: ackMarker) != nil }
        }
        return count
    }
}

/// Counts the `ack` lines of a folder of histories while writers append to them: how the free scheduler counts
/// commits, polling every 10 ms. Each poll reads only the bytes appended since the last one (reading every file
/// whole at every poll was the test process's largest single cost, docs/performance.md); a line not yet ended
/// by its newline is counted as `HistoryReader.acknowledged(in:)` counts it, and read again at the next poll.
public final class AcknowledgementCounter {
    private let directory: URL
    /// Per file: the offset just past its last complete line, and the acks among its complete lines.
    private var files: [String: (offset: UInt64, acks: Int)] = [:]

    public init(directory: URL) { self.directory = directory }

    /// The acks in the folder now.
    public func count() -> Int {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".jsonl") }
        var total = 0
        for name in names {
            var (offset, acks) = files[name] ?? (0, 0)
            guard let handle = FileHandle(forReadingAtPath: directory.appendingPathComponent(name).path) else { continue }
            defer { try? handle.close() }
            // A file shorter than what was read of it was replaced: it is read again from its start.
            if let size = try? handle.seekToEnd(), size < offset { (offset, acks) = (0, 0) }
            guard (try? handle.seek(toOffset: offset)) != nil, let appended = try? handle.readToEnd() else {
                total += acks
                continue
            }
            var tail = 0
            if let lastNewline = appended.lastIndex(of: 0x0A) {
                let complete = appended[appended.startIndex...lastNewline]
                acks += complete.split(separator: 0x0A).count { $0.range(of: HistoryReader.ackMarker) != nil }
                offset += UInt64(complete.count)
                tail = appended.distance(from: appended.index(after: lastNewline), to: appended.endIndex)
            } else {
                tail = appended.count
            }
            files[name] = (offset, acks)
            let partial = appended.suffix(tail)
            total += acks + (partial.range(of: HistoryReader.ackMarker) != nil ? 1 : 0)
        }
        return total
    }
}
