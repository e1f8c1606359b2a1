import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// When a writer may run its next transaction. Both writers (the model's `Writer` and the `LayoutWriter` of a
/// user's store) pace themselves the same way, so the schedulers treat them alike: a writer whose runner died
/// (even by SIGKILL) stops instead of writing on as an orphan; under the turns scheduler it waits for a token on
/// its FIFO (the runner grants turns from the seed); with a rate it spaces its transactions evenly from its start.
final class TransactionPacer {
    private let parent = getppid()
    private let start = Date()
    private let rate: Double
    private let turns: Int32

    init(turnsFIFO: String?, rate: Double) {
        self.rate = rate
        turns = turnsFIFO.map { open($0, O_RDONLY | O_CLOEXEC) } ?? -1
    }

    deinit { if turns >= 0 { close(turns) } }

    /// Waits until transaction `seq` (from 1) may run. False when the writer must stop: its runner is gone, or
    /// the turns FIFO was closed.
    func awaitTurn(_ seq: Int) -> Bool {
        if getppid() != parent { return false }
        if turns >= 0 {
            var token: UInt8 = 0
            guard read(turns, &token, 1) == 1 else { return false }
        }
        guard rate > 0 else { return true }
        // Sleep in slices of at most a second, so a slow rate still notices a runner that died.
        let due = start.addingTimeInterval(Double(seq - 1) / rate)
        while case let wait = due.timeIntervalSinceNow, wait > 0 {
            usleep(UInt32(min(wait, 1) * 1_000_000))
            if getppid() != parent { return false }
        }
        return true
    }
}
