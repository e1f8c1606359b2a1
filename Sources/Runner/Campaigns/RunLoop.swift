import Foundation
import Synchronization

/// The loop every many-runs command goes through: it takes the cases of one shard (`--shard K/N`: every N-th
/// case, starting at the K-th) and runs them, at most `jobs` at a time, returning one row per case in the cases'
/// order whatever order they finished in, so a page made from the rows is the same at `--jobs 1` and `--jobs N`.
///
/// Runs in parallel are independent: each has its own scratch folder, report folder, FaultFS volume (its own
/// daemon process) and child registry; nothing of one run is shared with another. A parallel run shares the
/// machine, so a drill whose verdict depends on the machine's pace must wait for the event it needs (see
/// docs/campaigns.md); that is why `jobs` is 1 unless a command is asked for more.
public struct RunLoop: Sendable {
    /// Runs at a time (1: one after another, on the calling thread).
    public var jobs: Int
    public var shard: Shard?

    public init(jobs: Int = 1, shard: Shard? = nil) {
        self.jobs = max(1, jobs)
        self.shard = shard
    }

    /// The cases this shard runs, in order.
    public func slice<Case>(_ cases: [Case]) -> [Case] {
        guard let shard else { return cases }
        return cases.enumerated().filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
    }

    /// Runs `body` on every case of this shard (`body` gets the case and its position in the slice) and returns
    /// the rows in the slice's order. A `body` that throws stops the loop from starting new cases; the first
    /// error is thrown once the running ones have finished.
    public func map<Case: Sendable, Row: Sendable>(_ cases: [Case], _ body: @escaping @Sendable (Case, Int) throws -> Row) throws -> [Row] {
        let mine = slice(cases)
        if jobs == 1 || mine.count < 2 {
            return try mine.enumerated().map { try body($0.element, $0.offset) }
        }
        let state = Shared(LoopState<Row>(rows: Array(repeating: nil, count: mine.count)))
        let done = DispatchGroup()
        for _ in 0..<min(jobs, mine.count) {
            done.enter()
            let worker = Thread {
                defer { done.leave() }
                while true {
                    let next: Int? = state.withLock { state in
                        guard state.error == nil, state.next < mine.count else { return nil }
                        defer { state.next += 1 }
                        return state.next
                    }
                    guard let position = next else { return }
                    do {
                        let row = try body(mine[position], position)
                        state.withLock { $0.rows[position] = row }
                    } catch {
                        state.withLock { if $0.error == nil { $0.error = error } }
                    }
                }
            }
            // Runs start FaultFS daemons and children and wait on them: a worker needs little stack of its own.
            worker.stackSize = 8 << 20
            worker.start()
        }
        done.wait()
        return try state.withLock { state in
            if let error = state.error { throw error }
            return state.rows.map { $0! }
        }
    }
}

extension RunLoop {
    /// Runs the cases of this shard one after another until `stop` says the row just made is the last (a finding
    /// that ends a search, a replay whose program could not start, an interruption or a spent budget); returns
    /// the rows up to and including it. One at a time whatever `jobs` is: whether a case runs at all depends on
    /// the rows before it (`FaultWalk` runs `jobs` of its Ns together and drops the rows past its stop instead).
    public func map<Case, Row>(_ cases: [Case], until stop: (Row) -> Bool, _ body: (Case, Int) throws -> Row) rethrows -> [Row] {
        var rows: [Row] = []
        for (position, item) in slice(cases).enumerated() {
            let row = try body(item, position)
            rows.append(row)
            if stop(row) { break }
        }
        return rows
    }
}

/// A value the loop's workers share, behind one lock (a class, so escaping closures share it).
final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T { try mutex.withLock { try body(&$0) } }
}

private struct LoopState<Row: Sendable>: Sendable {
    var rows: [Row?]
    var next = 0
    var error: (any Error)?
}

/// `--jobs N`: runs at a time; `cores` (or 0) means one per core of this machine.
public enum JobCount {
    public static var cores: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Parses `--jobs`: a positive number, or `cores`. Nil with the message for anything else.
    public static func parse(_ text: String) -> Result<Int, JobCountError> {
        if text == "cores" || text == "0" { return .success(cores) }
        guard let n = Int(text), n >= 1, n <= 64 else {
            return .failure(JobCountError(message: "--jobs \(text): give a number of runs at a time between 1 and 64, or `cores` (\(cores) here)"))
        }
        return .success(n)
    }
}

public struct JobCountError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
