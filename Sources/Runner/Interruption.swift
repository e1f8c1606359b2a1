import Foundation
import Synchronization

/// SIGINT and SIGTERM during a run: the handler only records the signal; the runner sees it within one
/// scheduling tick, kills its children and unmounts before it exits, so an interrupted run leaves nothing behind.
public enum Interruption {
    /// The signal that asked to stop, 0 while none has.
    static let signalNumber = Atomic<Int32>(0)

    public static var requested: Bool { signalNumber.load(ordering: .relaxed) != 0 }

    /// The shell's convention for a process ended by a signal, 128 + its number: 130 after SIGINT (Ctrl-C),
    /// 143 after SIGTERM (a CI job cancelled, `kill`), so CI tells the two apart.
    public static var exitCode: Int32 { exitCode(signal: signalNumber.load(ordering: .relaxed)) }

    public static func exitCode(signal: Int32) -> Int32 { 128 + (signal == 0 ? SIGINT : signal) }

    /// "interrupted by SIGTERM", or nil while no signal has come.
    public static var description: String? {
        switch signalNumber.load(ordering: .relaxed) {
        case 0: nil
        case SIGTERM: "interrupted by SIGTERM"
        case SIGINT: "interrupted by SIGINT"
        case let other: "interrupted by signal \(other)"
        }
    }

    /// Installs the handlers (once, from the CLI).
    public static func install() {
        let handler: @convention(c) (Int32) -> Void = { number in
            // The first signal decides the exit code; a second (Ctrl-C twice) does not change it.
            _ = Interruption.signalNumber.compareExchange(expected: 0, desired: number, ordering: .relaxed)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }
}
