import FaultFS
import Foundation
@testable import Runner
import Testing

/// The store-activity scan picks a long log's barriers out by their `op` field without decoding the line: it must
/// pick exactly the records `LoggedOp.isBarrier` names, as the daemon's own encoder writes them.
struct OpLogLineTests {
    @Test func theBarrierScanMatchesExactlyTheBarriers() throws {
        for op in LoggedOp.allCases {
            let record = OpRecord(seq: 7, t: 1.5, op: op, path: "/Library.sqlite-wal", result: 0)
            let log = try OpLog.line(record)
            var matched: [Bool] = []
            OpLogLine.lines(of: log) { line in matched.append(OpLogLine.barrierOps.contains { line.contains($0) }) }
            #expect(matched == [op.isBarrier], "\(op)")
        }
        // fsync, fdatasync, a folder's fsync and sync-all, no more.
        #expect(OpLogLine.barrierOps.count == 4)
    }
}
