import Checks
import Foundation
import Reporting

/// A restore of the recorded run, for judging crash states from its start on: when it began and reported success
/// (nil when it failed), on the history's clock, and which prefix of each writer's history the backup it was given
/// holds (`CrashStateExamination.Reflected`, as a state's are computed).
public struct CrashStateRestore: Sendable, Equatable, Codable {
    public var name: String
    public var start: Double
    public var end: Double?
    var backup: [CrashStateExamination.Reflected]

    /// The restores of a finished run: each restore operation with the backup it restored from, read back (on a
    /// private copy) and matched against the writers' histories. A restore whose backup cannot be read is left out
    /// (its states are judged as before). Only restores no writer committed after: the store they leave is then
    /// the backup exactly.
    /// `scratch`: the run's scratch folder; a backup kept on the FaultFS volume (`scratch/store/...`) is read from
    /// the volume's backing folder once the volume is unmounted.
    static func of(_ result: RunResult, oracle: Oracle, scratch: URL) -> [CrashStateRestore] {
        let mount = scratch.appendingPathComponent("store").standardizedFileURL.path + "/"
        let backing = scratch.appendingPathComponent("store-backing").standardizedFileURL.path + "/"
        let lastAck = oracle.writers.flatMap { oracle.sequence(of: $0).compactMap(\.ackAt) }.max() ?? 0
        return result.operations.compactMap { operation -> CrashStateRestore? in
            guard operation.action == "restore", operation.start >= lastAck, let source = operation.details["restoredFrom"],
                  var backup = result.operations.first(where: { $0.name == source })?.store else { return nil }
            backup = URL(fileURLWithPath: backup).standardizedFileURL.path
            if backup.hasPrefix(mount) { backup = backing + backup.dropFirst(mount.count) }
            guard let state = try? StoreState.read(URL(fileURLWithPath: backup)) else { return nil }
            let reflected = oracle.match(state).map { CrashStateExamination.Reflected(writer: $0.writer, prefix: $0.prefixes.max()) }
            return CrashStateRestore(name: operation.name, start: operation.start, end: operation.succeeded ? operation.end : nil, backup: reflected)
        }
    }
}
