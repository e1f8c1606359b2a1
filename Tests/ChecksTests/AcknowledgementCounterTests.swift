import Foundation
import Testing
import Workload

/// The free scheduler's commit count (`AcknowledgementCounter`, reading only what each history gained since the last
/// poll) is the count of the files read whole (`HistoryReader.acknowledged(in:)`) at every moment: as lines arrive
/// in pieces (a line cut before its newline, its marker half written), as a new writer's file appears, and when a
/// file is replaced by a shorter one.
@Suite struct AcknowledgementCounterTests {
    static func line(_ seq: Int, _ state: String) -> String {
        #"{"writer":1,"seq":\#(seq),"state":"\#(state)","t":0.5}"# + "\n"
    }

    @Test func countsWhatTheWholeFilesCountAtEveryPoll() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lifeboat-acks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let counter = AcknowledgementCounter(directory: folder)
        #expect(counter.count() == 0)
        var text: [String: String] = [:]
        func append(_ file: String, _ piece: String) throws {
            text[file, default: ""] += piece
            try Data(text[file]!.utf8).write(to: folder.appendingPathComponent(file))
            #expect(counter.count() == HistoryReader.acknowledged(in: folder), "after \(piece.debugDescription) to \(file)")
        }
        for seq in 1...5 {
            let intent = Self.line(seq, "intent"), ack = Self.line(seq, "ack")
            try append("writer-1.jsonl", intent)
            // The ack line in three pieces: before its marker is whole, before its newline, then its newline.
            let cut = ack.index(ack.startIndex, offsetBy: 25), end = ack.index(before: ack.endIndex)
            try append("writer-1.jsonl", String(ack[..<cut]))
            try append("writer-1.jsonl", String(ack[cut..<end]))
            try append("writer-1.jsonl", "\n")
            if seq.isMultiple(of: 2) { try append("writer-2.jsonl", Self.line(seq, "ack") + Self.line(seq + 1, "failed")) }
        }
        #expect(counter.count() == 7)
        try Data(Self.line(1, "ack").utf8).write(to: folder.appendingPathComponent("writer-1.jsonl"))
        #expect(counter.count() == HistoryReader.acknowledged(in: folder) && counter.count() == 3, "a file replaced by a shorter one is read again")
        try Data("not a history".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        #expect(counter.count() == 3)
    }

    /// The turns scheduler's view of one writer (`HistoryOutcomes`): its acks and failures as the history grows,
    /// complete lines only, the last one's kind; the same as decoding the file whole.
    @Test func outcomesCountCompleteLinesAsTheDecoderDoes() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lifeboat-outcomes-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        var outcomes = HistoryOutcomes(url)
        #expect(outcomes.read() == 0)
        var text = ""
        func append(_ piece: String) throws {
            text += piece
            try Data(text.utf8).write(to: url)
            let decoded = HistoryReader.records(url).filter { $0.state == .ack || $0.state == .failed }
            #expect(outcomes.read() == decoded.count && outcomes.lastAcknowledged == (decoded.last?.state == .ack), "after \(piece.debugDescription)")
        }
        for (seq, state) in [(1, "ack"), (2, "failed"), (3, "ack"), (4, "ack"), (5, "failed")] {
            try append(Self.line(seq, "intent"))
            let line = Self.line(seq, state)
            try append(String(line.dropLast(8)))
            try append(String(line.suffix(8)))
        }
        #expect(outcomes.count == 5 && !outcomes.lastAcknowledged)
    }
}
