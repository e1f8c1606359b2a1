import Checks
import ChildProcesses
import Foundation
import Scenario

/// How the turns scheduler interleaves writers with a copy: `grantTurn` lets one writer (drawn from the seed)
/// commit one transaction, `draw` says how many to let in before the next copy step.
struct Lockstep {
    var grantTurn: () throws -> Bool
    var draw: () -> Int

    /// Strategies whose copy runs through SQLite's backup step loop and so can be stepped from outside.
    static let steppableStrategies: Set<String> = ["backup-api", "replace"]

    /// A FIFO the copy child reads its step tokens from, and the file it reports its steps in.
    struct GateFiles {
        var fifo: URL
        var progress: URL
        var fd: Int32

        init(scratch: URL, name: String) throws {
            fifo = scratch.appendingPathComponent("gate-\(name)")
            progress = scratch.appendingPathComponent("gate-\(name).progress")
            try? FileManager.default.removeItem(at: fifo)
            try? FileManager.default.removeItem(at: progress)
            guard mkfifo(fifo.path, 0o600) == 0 else { throw RunError.environment("cannot create the step FIFO \(fifo.path)") }
            // Read-write, so neither our writes nor the child's open ever block on the other end.
            fd = open(fifo.path, O_RDWR | O_CLOEXEC)
            guard fd >= 0 else { throw RunError.environment("cannot open the step FIFO \(fifo.path)") }
        }
    }

    /// Runs the copy one step at a time with a seeded number of writer transactions between steps, until the
    /// copy reports it is done (its blob copy then runs with the writers held). A child that never gets to the
    /// step loop (a clone) simply finishes.
    func drive(_ name: String, child: ChildRegistry.Child, gate: GateFiles, clock: RunClock, note: (String, TimelineEvent.Kind, String) -> Void) throws {
        defer { close(gate.fd) }
        func lines() -> [Substring] { ((try? String(contentsOf: gate.progress, encoding: .utf8)) ?? "").split(separator: "\n") }
        func waitForMore(than count: Int) throws -> [Substring] {
            var backoff = PollBackoff()
            while true {
                let seen = lines()
                if seen.count > count || !child.isRunning { return seen }
                try clock.checkDeadline()
                backoff.wait()
            }
        }
        var seen = try waitForMore(than: 0)
        guard seen.first == "ready" else { return }
        var transactions = 0
        var steps = 0
        while child.isRunning, seen.last?.hasPrefix("done") != true {
            for _ in 0..<draw() where try grantTurn() { transactions += 1 }
            var token: UInt8 = 1
            guard write(gate.fd, &token, 1) == 1 else { break }
            steps += 1
            seen = try waitForMore(than: seen.count)
        }
        note(name, .note, "lockstep: \(steps) copy step(s), \(transactions) writer transaction(s) between them")
    }
}
