import FaultFS
import FaultVocabulary
import Foundation
import Testing

/// The op log's record names are one type: every call a rule can match has one, a rule counts each logged call
/// as the op it is written with, and a log line reads back to the same record and the same text.
struct LoggedOpTests {
    @Test func everyCallARuleCanMatchHasALoggedNameThatMapsBack() {
        for op in FaultOp.allCases where op != .any {
            #expect(LoggedOp(op).rawValue == op.rawValue)
            #expect(LoggedOp(op).ruleOp == op)
        }
    }

    @Test func theCallsARuleCountsAsAnotherAndTheDaemonsOwnRecords() {
        #expect(LoggedOp.fdatasync.ruleOp == .fsync)
        #expect(LoggedOp.mknod.ruleOp == .create)
        #expect(LoggedOp.exchange.ruleOp == .rename)
        for own in [LoggedOp.mount, .unmount, .arm, .mark, .crash, .syncAll, .endOfLog] { #expect(own.ruleOp == nil) }
        #expect(LoggedOp.syncAll.rawValue == "sync-all" && LoggedOp.copyFileRange.rawValue == "copy_file_range")
    }

    @Test func barriersDataAndEntriesAreTheKindsTheCrashModelNames() {
        #expect(LoggedOp.allCases.filter(\.isBarrier) == [.fsync, .fsyncdir, .fdatasync, .syncAll])
        #expect(LoggedOp.allCases.filter(\.isData) == [.write, .truncate, .fallocate, .copyFileRange])
        #expect(LoggedOp.allCases.filter(\.isEntry) == [.create, .rename, .unlink, .rmdir, .mkdir, .link, .symlink, .mknod, .exchange])
        #expect(LoggedOp.allCases.filter { $0.isBarrier && ($0.isData || $0.isEntry) }.isEmpty)
    }

    @Test func aLogLineReadsBackAndAnUnknownNameIsABadLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("logged-op-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("ops.jsonl")
        // As the daemon writes them (sorted keys): a sync of everything, a crash, a call.
        let lines = [
            #"{"fault":null,"op":"sync-all","result":0,"seq":4,"synced":[1,2],"t":0.5}"#,
            #"{"dropped":[3],"fault":null,"op":"crash","result":0,"seq":5,"t":0.6}"#,
            #"{"fault":"r1","ino":7,"op":"fdatasync","path":"/Library.sqlite-wal","result":-5,"seq":6,"t":0.7}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: log)
        let records = try OpLog.read(log)
        #expect(records.map(\.op) == [.syncAll, .crash, .fdatasync])
        #expect(records[2].humanDescription.contains("fdatasync") && records[2].humanDescription.contains("EIO"))
        #expect(try String(decoding: OpLog.line(records[0]), as: UTF8.self) == lines[0] + "\n")

        try Data(#"{"fault":null,"op":"teleport","result":0,"seq":1,"t":0}"#.utf8).write(to: log)
        #expect { try OpLog.read(log) } throws: { "\($0)".contains("line 1") }
    }
}
