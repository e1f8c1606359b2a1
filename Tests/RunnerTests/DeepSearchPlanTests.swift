import Explore
import FaultVocabulary
import Foundation
import Testing

/// The deep search's plan from the probe's counts: the persistence-point crash walks first, each walk as long as
/// the program's calls of its kinds, none for kinds the program never called, and a crash after success per mode.
@Suite struct DeepSearchPlanTests {
    @Test func walksAreSizedByTheProgramsCalls() {
        let walks = DeepSearch.plan("backup", calls: ["write": 29, "fsync": 4, "fsyncdir": 1, "rename": 1, "unlink": 1, "copy_file_range": 0,
                                                      "flush": 6])
        let keepNone = walks.first { $0.action == .crash(.keepNone) && !$0.ops.isEmpty }
        #expect(walks.first == keepNone, "the persistence points come first, so a budget cuts the long write walks")
        #expect(keepNone?.count == 4 + 1 + 1 + 1)
        #expect(walks.first { $0.action == .errno(.ENOSPC) }?.count == 29)
        #expect(walks.first { $0.action == .fsyncFailClean }?.count == 4)
        #expect(walks.first { $0.action == .errno(.EIO) && $0.ops.contains(.rename) }?.count == 4 + 1 + 1)
        #expect(walks.first { $0.action == .errno(.EIO) && $0.ops.contains(.write) }?.count == 29, "no copy_file_range was counted")
        let closes = walks.first { $0.ops == [.flush] }
        #expect(closes?.action == .errno(.EIO) && closes?.count == 6, "EIO at each of the program's closes")
        #expect(closes?.label == "backup: errno EIO at flush" && closes?.folder == "backup-errno-EIO-flush")
        #expect(!DeepSearch.plan("backup", calls: ["write": 3]).contains { $0.ops.contains(.flush) }, "no close walk without a counted close")
        #expect(!walks.contains { $0.action.kind == .delay }, "no interleaving outside an interleaving target")
        let interleavings = DeepSearch.plan("backup+checkpoint-truncate", calls: ["open": 5, "write": 3], interleaving: "/Library.sqlite*",
                                            work: [.commit(4), .checkpoint(.truncate), .commit(1)])
        #expect(interleavings.map(\.count) == [5] && interleavings.first?.path == "/Library.sqlite*")
        #expect(interleavings.first?.action == .hold(60_000) && interleavings.first?.whileHeld == [.commit(4), .checkpoint(.truncate), .commit(1)])
        let afterSuccess = walks.filter(\.ops.isEmpty)
        #expect(afterSuccess.map(\.action.description) == ["crash keep-none", "crash reorder", "crash torn"])
        #expect(afterSuccess.allSatisfy { $0.count == 1 && $0.label.hasSuffix("after it reported success") })
        #expect(Set(walks.map(\.folder)).count == walks.count, "every walk has a folder of its own")
    }

    /// The input/output table from the probe's counts and the walks' faults: success met for every kind of call
    /// made, the answers walked faulted, the others not tried (saying whether a planned walk was cut), and the
    /// answers no local file system gives unreachable, with why; the filling walks plan the rest.
    @Test func theInputOutputTableSaysWhatEachCallWasAnswered() {
        let calls = ["write": 29, "fsync": 3, "fsyncdir": 1, "unlink": 1, "flush": 4]
        let walks = DeepSearch.plan("backup", calls: calls)
        #expect(walks.first { $0.action == .errno(.EDQUOT) && $0.ops.contains(.write) }?.count == 29 && walks.first { $0.action == .errno(.EROFS) && $0.ops == [.rename, .unlink, .rmdir] }?.count == 1)
        let planned = Set(walks.flatMap { walk in DeepSearch.ioAnswer(of: walk.action).map { answer in walk.ops.map { DeepSearch.ioKey($0.rawValue, answer) } } ?? [] })
        let cells = DeepSearch.ioCoverage(calls: calls, faulted: ["write EIO": 4, "fsync EIO": 3], planned: planned)
        func cell(_ op: FaultOp, _ answer: DeepSearch.IOAnswer) -> DeepSearch.IOCell? { cells.first { $0.op == op && $0.answer == answer } }
        #expect(cell(.write, .success)?.status == .met && cell(.write, .success)?.calls == 29)
        #expect(cell(.write, .errno(.EIO))?.status == .faulted && cell(.write, .errno(.EIO))?.calls == 4)
        #expect(cell(.write, .errno(.ENOSPC))?.status == .notTried && cell(.write, .errno(.ENOSPC))?.reason?.contains("did not run") == true)
        #expect(cell(.flush, .errno(.ENOSPC))?.status == .unreachable && cell(.fsync, .errno(.EINTR))?.status == .unreachable)
        #expect(cell(.fsyncdir, .fsyncFailClean)?.status == .unreachable && cell(.fsync, .fsyncFailClean)?.status == .notTried)
        #expect(!cells.contains { $0.op == .rename || $0.op == .copyFileRange }, "no row for a call the program never made")
        let reachable = cells.filter { $0.status != .unreachable && $0.answer != .success }
        let unplanned = reachable.filter { !planned.contains(DeepSearch.ioKey($0.op.rawValue, $0.answer)) }.map { "\($0.op.rawValue) \($0.answer)" }
        #expect(unplanned.isEmpty, "the walks plan every reachable answer: \(unplanned)")
        #expect(DeepSearch.ioOp(ofHit: "fdatasync") == "fsync" && DeepSearch.ioOp(ofHit: "flush") == "flush", "SQLite's fdatasync is an fsync's row")
        let share = DeepSearch.ioShare(["backup": cells])
        #expect(share.hasPrefix("7 of 18 reachable"), "\(share)")
    }

    @Test func aProgramThatWritesNothingHasOnlyTheCrashAfterSuccess() {
        let walks = DeepSearch.plan("restore", calls: [:])
        #expect(walks.allSatisfy { $0.ops.isEmpty })
        #expect(walks.count == 3)
    }

    /// The write walks are grouped by run: the first and the last write of each run of writes to one file, a run
    /// being broken by any other call of the program (a fsync, an open) or by a write to another file.
    @Test func writeWalksTryTheFirstAndLastWriteOfEachRun() throws {
        func call(_ op: FaultOp, _ path: String) -> DeepSearch.Call { DeepSearch.Call(op: op, path: path) }
        let calls = [call(.open, "/Library.sqlite")]
            + (0..<3).map { _ in call(.write, "/b/x-journal") }
            + (0..<20).map { _ in call(.write, "/b/x") }
            + [call(.fsync, "/b/x")]
            + (0..<5).map { _ in call(.write, "/b/x") }
            + [call(.write, "/b/y"), call(.copyFileRange, "/b/z"), call(.copyFileRange, "/b/z")]
        let writes = calls.filter { $0.op == .write }.count
        #expect(DeepSearch.representatives(of: calls, ops: [.write, .copyFileRange], count: writes + 2) == [1, 3, 4, 23, 24, 28, 29, 30, 31])
        // A short write is walked over `write` only: the copy_file_range calls are not counted.
        #expect(DeepSearch.representatives(of: calls, ops: [.write], count: writes) == [1, 3, 4, 23, 24, 28, 29])
        // When the op log and the rule's counter disagree the walk tries every N.
        #expect(DeepSearch.representatives(of: calls, ops: [.write], count: writes + 1) == nil)

        let walks = DeepSearch.plan("backup", calls: ["write": writes, "copy_file_range": 2, "fsync": 1, "open": 1], sequence: calls)
        let eio = walks.first { $0.action == .errno(.EIO) && $0.ops.contains(.write) }
        #expect(eio?.only == [1, 3, 4, 23, 24, 28, 29, 30, 31] && eio?.count == 9 && eio?.calls == writes + 2)
        #expect(walks.first { $0.action == .shortWrite(1) }?.only == [1, 3, 4, 23, 24, 28, 29])
        // The walk runs every chosen N: its last is the 31st call, well past the walk's 9 points.
        let config = DeepSearch.config(of: try #require(eio), file: "x.yaml", actor: "backup-1")
        #expect(config.max == 31 && config.only == eio?.only && config.excused == ["backup-completes"])
        let fsync = walks.first { $0.action == .fsyncFailClean }
        #expect(fsync?.only == nil && fsync?.count == 1, "persistence points are each walked")
        #expect(DeepSearch.plan("backup", calls: ["write": writes]).first { $0.action == .errno(.EIO) }?.only == nil,
                "no op log: every write")
    }

    /// A restore's points after its swap, from the probe's calls in order: the swap is its last rename onto the
    /// database (or its last write into it), and each walk's Ns past it are marked (a grouped walk's chosen ones
    /// only); the crash after success is after it; the removals and the cleanup are walked with EIO, EROFS and the
    /// crashes, rmdir included.
    @Test func aRestoresPointsAfterItsSwapAreItsCallsPastTheRenameOntoTheDatabase() throws {
        func call(_ op: FaultOp, _ path: String, _ path2: String? = nil) -> DeepSearch.Call { DeepSearch.Call(op: op, path: path, path2: path2) }
        let calls = (0..<4).map { _ in call(.write, "/Library.sqlite.restoring") }
            + [call(.fsync, "/Library.sqlite.restoring"), call(.rename, "/Library.sqlite.restoring", "/Library.sqlite"), call(.fsyncdir, "/"),
               call(.unlink, "/Library.sqlite-wal"), call(.unlink, "/Library.sqlite-shm"), call(.unlink, "/tmp-restore/x"),
               call(.rmdir, "/tmp-restore"), call(.fsyncdir, "/")]
        #expect(DeepSearch.swapIndex(in: calls, database: "/Library.sqlite") == 5)
        #expect(DeepSearch.swapIndex(in: [call(.write, "/Library.sqlite"), call(.unlink, "/Library.sqlite-wal")], database: "/Library.sqlite") == 0,
                "a copy over the database: its last write")
        #expect(DeepSearch.swapIndex(in: [call(.write, "/elsewhere")], database: "/Library.sqlite") == nil)
        let counts = ["write": 4, "fsync": 1, "rename": 1, "fsyncdir": 2, "unlink": 3, "rmdir": 1]
        var walks = DeepSearch.plan("restore", calls: counts, sequence: calls)
        let swap = try #require(DeepSearch.markAfterSwap(&walks, calls: calls, storeGlob: "/Library.sqlite*"))
        #expect(swap.swap == "rename /Library.sqlite.restoring -> /Library.sqlite")
        #expect(swap.calls == ["fsyncdir": 2, "unlink": 3, "rmdir": 1])
        let keepNone = try #require(walks.first { $0.action == .crash(.keepNone) && !$0.ops.isEmpty })
        #expect(keepNone.ops.contains(.rmdir) && keepNone.count == 1 + 2 + 1 + 3 + 1)
        // Its Ns: fsync 1, rename 2, fsyncdir 3, unlink 4-6, rmdir 7, fsyncdir 8; after the rename: 3...8.
        #expect(keepNone.afterSwap == [3, 4, 5, 6, 7, 8])
        let removal = try #require(walks.first { $0.ops == [.unlink, .rmdir] && $0.action == .errno(.EIO) })
        #expect(removal.afterSwap == [1, 2, 3, 4], "EIO at every removal after the swap, among the persistence points")
        #expect(walks.firstIndex { $0.ops == [.unlink, .rmdir] }! < walks.firstIndex { $0.action == .errno(.EROFS) }!)
        #expect(walks.first { $0.action == .errno(.EIO) && $0.ops.contains(.write) }?.afterSwap == [], "every write came before it")
        #expect(walks.filter(\.ops.isEmpty).allSatisfy { $0.afterSwap == [1] }, "the crash after success")
        #expect(swap.planned == walks.reduce(0) { $0 + ($1.afterSwap?.count ?? 0) })
        let cells = DeepSearch.ioCoverage(calls: counts, faulted: [:], planned: [])
        #expect(cells.first { $0.op == .rmdir && $0.answer == .errno(.EROFS) }?.status == .notTried && cells.first { $0.op == .rmdir && $0.answer == .errno(.ENOSPC) }?.status == .unreachable)
        // No op log: nothing claimed.
        var unmarked = DeepSearch.plan("restore", calls: counts)
        #expect(DeepSearch.markAfterSwap(&unmarked, calls: nil, storeGlob: "/Library.sqlite*") == nil && unmarked.allSatisfy { $0.afterSwap == nil })
    }

    /// The table's answers are typed (`IOAnswer`), but `deep.json` and the page name them as they always have:
    /// a cell's `op` and `answer` are written as the same strings, and read back.
    @Test func theTableWritesItsAnswersAndCallsByTheirOldNames() throws {
        #expect(DeepSearch.ioAnswers.map(\.description) == ["success", "short", "EIO", "ENOSPC", "EDQUOT", "EROFS", "EINTR", "fsync-fail-clean"])
        #expect(DeepSearch.ioAnswers.allSatisfy { DeepSearch.IOAnswer(name: $0.description) == $0 } && DeepSearch.IOAnswer(name: "ENOENT") == nil)
        #expect(DeepSearch.ioAnswer(of: .errno(.ENOENT)) == nil && DeepSearch.ioAnswer(of: .errno(.EROFS)) == .errno(.EROFS))
        let cells = DeepSearch.ioCoverage(calls: ["copy_file_range": 2], faulted: ["copy_file_range EIO": 1], planned: [])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(Array(cells.prefix(3))), as: UTF8.self)
        #expect(json == #"[{"answer":"success","calls":2,"op":"copy_file_range","status":"met"},"#
                + #"{"answer":"short","calls":0,"op":"copy_file_range","reason":"FaultFS cannot cut a copy_file_range short (short-write acts on write)","status":"not tried"},"#
                + #"{"answer":"EIO","calls":1,"op":"copy_file_range","status":"faulted"}]"#)
        #expect(try JSONDecoder().decode([DeepSearch.IOCell].self, from: encoder.encode(cells)) == cells)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DeepSearch.IOAnswer.self, from: Data(#""ENOENT""#.utf8)) }
    }
}
