import Foundation

extension SQLiteBackup {
    /// Lockstep with the runner's turns scheduler: the copy takes one step per byte it reads from `fifo`, and
    /// appends a line to `progress` when it is ready and after every step, so the runner can put a seeded
    /// number of writer transactions between two steps and a replay sees the same restarts and the same copy.
    /// When the runner closes its end of the FIFO the copy runs on ungated.
    public struct Gate: Sendable, Hashable, Codable {
        public var fifo: String
        public var progress: String
        public init(fifo: String, progress: String) {
            self.fifo = fifo
            self.progress = progress
        }
    }

    /// The open ends of a gate inside one copy.
    final class GateChannel {
        private var fifo: Int32
        private let progress: Int32

        init?(_ gate: Gate) {
            let progress = open(gate.progress, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard progress >= 0 else { return nil }
            let fifo = open(gate.fifo, O_RDONLY | O_CLOEXEC)
            guard fifo >= 0 else { close(progress); return nil }
            self.fifo = fifo
            self.progress = progress
            say("ready")
        }

        deinit {
            if fifo >= 0 { close(fifo) }
            close(progress)
        }

        /// Blocks until the runner grants the next step (or has let go of the gate).
        func awaitTurn() {
            guard fifo >= 0 else { return }
            var token: UInt8 = 0
            while true {
                let n = read(fifo, &token, 1)
                if n == 1 { return }
                if n < 0, errno == EINTR { continue }
                close(fifo)
                fifo = -1
                return
            }
        }

        /// One whole line per write(2), so the runner never reads half a line.
        func say(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(progress, $0.baseAddress, $0.count) }
        }
    }
}
