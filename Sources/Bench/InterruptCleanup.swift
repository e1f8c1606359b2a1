import Dispatch
import Foundation

/// Runs a cleanup when SIGINT or SIGTERM arrives, then exits 128 + the signal (130 for SIGINT, 143 for SIGTERM): a bench interrupted with Ctrl-C must not
/// leave a loop-mounted volume behind. The signals are handled on a dispatch queue (never in a raw signal
/// handler), after the running child has been killed and no new one may start.
public final class InterruptCleanup {
    private var sources: [any DispatchSourceSignal] = []

    public init(_ cleanup: @escaping @Sendable () -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [cleanup] in
                FileHandle.standardError.write(Data("\nlifeboat bench: interrupted; cleaning up\n".utf8))
                ProcessSpawn.interrupt()
                cleanup()
                exit(128 + number)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Stops listening and restores the default signal actions.
    public func cancel() {
        for source in sources { source.cancel() }
        sources.removeAll()
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
