import Foundation
import Synchronization

/// SIGINT and SIGTERM during a run: the handler only sets a flag; the runner sees it within one scheduling tick,
/// kills its children and unmounts before it exits, so an interrupted run leaves nothing behind.
public enum Interruption {
    static let flag = Atomic<Bool>(false)

    public static var requested: Bool { flag.load(ordering: .relaxed) }

    /// Installs the handlers (once, from the CLI).
    public static func install() {
        let handler: @convention(c) (Int32) -> Void = { _ in Interruption.flag.store(true, ordering: .relaxed) }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }
}
