import Checks
import FaultFS
import Foundation

/// Grouping the write walks (issue 29, point 2: "group states by the program's operation that produced them").
/// A program copies a file in a run of writes: shutil's 64 KiB chunks, cp's `copy_file_range` calls. An EIO, an
/// ENOSPC or a short write at the 3rd or the 17th write of the same run meets the same error path in the program
/// and leaves the same kind of partial file; what can differ is the first write (nothing of the file written yet)
/// and the last (everything but the tail). So a write walk tries the first and the last write of each run, where a
/// run is the program's consecutive writes to one file with no other call of the program counted in between (an
/// fsync, a rename, an open of the store). The walks of the persistence points (fsync, rename, unlink) are not
/// grouped: each of those is its own barrier.
extension DeepSearch {
    /// One call of the program, as the probe run's op log holds it.
    /// The kind of call a walk's fault lands on, as a shrunk repro must land on it again: the op a rule names
    /// (an fdatasync, as the op log names SQLite's syncs, is an fsync's call: `LoggedOp.ruleOp`) and the class of
    /// file. A hit (`FaultHit`, the op log's name) and a counted call (`Call`, the rule's op) compare as one type.
    public struct CallKind: Sendable, Equatable {
        public var op: FaultOp
        public var fileClass: FileClass
        public init(op: FaultOp, fileClass: FileClass) { self.op = op; self.fileClass = fileClass }
        public init(_ hit: FaultHit) {
            let op = LoggedOp(rawValue: hit.op)?.ruleOp ?? .any
            self.init(op: op, fileClass: FileClass.of(hit.path, op: op))
        }
        public init(_ call: Call) { self.init(op: call.op, fileClass: FileClass.of(call.path, op: call.op)) }
    }

    public struct Call: Sendable, Codable, Equatable {
        public var op: FaultOp
        public var path: String
        /// A rename's target (what it put in place); nil for other calls.
        public var path2: String?
        public init(op: FaultOp, path: String, path2: String? = nil) {
            self.op = op
            self.path = path
            self.path2 = path2
        }
    }

    /// The calls the probe's rules fired on, in the op log's order. The probe's rules are scoped to the program
    /// (`actor`), so these are the program's own calls of the probed kinds; the op log orders them as FaultFS
    /// served them, which is the order the rules counted them in for a program that makes one call at a time (a
    /// shell script, cp, Python: one thread writing). An fdatasync (SQLite's sync) is the `fsync` rule's call, and
    /// is named so here: N counts it among the fsyncs.
    static func probedCalls(opLog url: URL) -> [Call]? {
        guard let records = try? OpLog.read(url) else { return nil }
        return records.compactMap { record in
            guard record.fault != nil, let op = record.op.ruleOp, probedOps.contains(op) else { return nil }
            return Call(op: op, path: record.path ?? "", path2: op == .rename ? record.path2 : nil)
        }
    }

    /// The Ns a walk over `ops` tries when its calls are grouped: the first and the last of each run of
    /// consecutive calls of those kinds to one path in `calls` (N counts the calls of `ops` only, from 1).
    /// Nil when the calls do not add up to `count` (the op log and the rule's counter disagree): the walk then
    /// tries every N.
    public static func representatives(of calls: [Call], ops: [FaultOp], count: Int) -> [Int]? {
        var chosen: [Int] = []
        var n = 0
        var run: (path: String, first: Int, last: Int)?
        func close() {
            if let run {
                chosen.append(run.first)
                if run.last != run.first { chosen.append(run.last) }
            }
            run = nil
        }
        for call in calls {
            guard ops.contains(call.op) else {
                close()
                continue
            }
            n += 1
            if let current = run, current.path == call.path {
                run?.last = n
            } else {
                close()
                run = (call.path, n, n)
            }
        }
        close()
        return n == count ? chosen : nil
    }
}
