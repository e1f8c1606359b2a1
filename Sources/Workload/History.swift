import Foundation

/// One line of a writer's history file (JSON Lines), kept outside the store's file system so a crash of the
/// store cannot touch it: the oracle every invariant is checked against.
///
/// A transaction is written as `intent` before the save and `ack` after the commit returned; `failed` when the
/// save threw. An intent with neither is a transaction in flight when the writer died: it may or may not be in
/// the store.
public struct HistoryRecord: Sendable, Codable, Equatable {
    public enum State: String, Sendable, Codable, CaseIterable { case intent, ack, failed, done }

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

    /// Number of `ack` lines so far, every file read whole (`AcknowledgementCounter` counts the same as the files
    /// grow, reading only what was appended).
    public static func acknowledged(in directory: URL) -> Int {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".jsonl") }
        var count = 0
        for file in files {
            guard let data = try? Data(contentsOf: directory.appendingPathComponent(file)) else { continue }
            count += data.split(separator: 0x0A).count { HistoryTail.line($0, is: .ack) }
        }
        return count
    }
}

/// One history file read as its writer appends to it: each `read` gives the complete lines appended since the last
/// one and the line begun but not yet ended (read again next time). The schedulers poll histories every few
/// milliseconds while the writers run; reading each file whole at every poll was the test process's largest cost
/// (docs/performance.md, "The test suite").
public struct HistoryTail {
    public let url: URL
    /// Just past the last complete line read.
    private var offset: UInt64 = 0

    public init(_ url: URL) { self.url = url }

    /// What was appended: `restarted` when the file is shorter than what was read of it (it was replaced, and its
    /// lines are given again from its start); nil when it cannot be read.
    public mutating func read() -> (restarted: Bool, lines: [Data], partial: Data)? {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? handle.close() }
        var restarted = false
        if let size = try? handle.seekToEnd(), size < offset { (offset, restarted) = (0, true) }
        guard (try? handle.seek(toOffset: offset)) != nil, let appended = try? handle.readToEnd() else { return nil }
        guard let lastNewline = appended.lastIndex(of: 0x0A) else { return (restarted, [], appended) }
        let complete = appended[appended.startIndex...lastNewline]
        offset += UInt64(complete.count)
        return (restarted, complete.split(separator: 0x0A), appended[appended.index(after: lastNewline)...])
    }

    /// Whether a line is a record in `state` (`"state":"ack"` as the writer's encoder writes it; a quote inside a
    /// string value is escaped, so no error text matches).
    public static func line(_ line: Data, is state: HistoryRecord.State) -> Bool {
        line.range(of: markers[state]!) != nil
    }

    private static let markers = Dictionary(uniqueKeysWithValues: HistoryRecord.State.allCases.map { ($0, Data(#""state":"\#($0.rawValue)""#.utf8)) })
}

/// Counts the `ack` lines of a folder of histories while writers append to them: how the free scheduler counts
/// commits, polling every 10 ms, reading only what each file gained (`HistoryTail`). A line not yet ended by its
/// newline is counted as `HistoryReader.acknowledged(in:)` counts it.
public final class AcknowledgementCounter {
    private let directory: URL
    private var files: [String: (tail: HistoryTail, acks: Int)] = [:]

    public init(directory: URL) { self.directory = directory }

    /// The acks in the folder now.
    public func count() -> Int {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".jsonl") }
        var total = 0
        for name in names {
            var (tail, acks) = files[name] ?? (HistoryTail(directory.appendingPathComponent(name)), 0)
            guard let read = tail.read() else {
                total += acks
                continue
            }
            if read.restarted { acks = 0 }
            acks += read.lines.count { HistoryTail.line($0, is: .ack) }
            files[name] = (tail, acks)
            total += acks + (HistoryTail.line(read.partial, is: .ack) ? 1 : 0)
        }
        return total
    }
}

/// The outcomes one writer has recorded (its `ack` and `failed` lines), read as its history grows: how the turns
/// scheduler sees that a turn's transaction ended, polling every 300 µs. Only complete lines count, as a line the
/// decoder cannot read yet counted for nothing when the file was decoded whole.
public struct HistoryOutcomes {
    private var tail: HistoryTail
    /// Outcomes so far, and whether the last was an ack.
    public private(set) var count = 0
    public private(set) var lastAcknowledged = false

    public init(_ url: URL) { tail = HistoryTail(url) }

    /// Reads what was appended; returns the outcomes so far.
    @discardableResult
    public mutating func read() -> Int {
        guard let read = tail.read() else { return count }
        if read.restarted { (count, lastAcknowledged) = (0, false) }
        for line in read.lines {
            if HistoryTail.line(line, is: .ack) { count += 1; lastAcknowledged = true }
            else if HistoryTail.line(line, is: .failed) { count += 1; lastAcknowledged = false }
        }
        return count
    }
}
