import Checks
import Foundation
import Scenario

/// The scenario's reader processes (`readers:`): an app's UI reading the store while the writers write, each
/// holding read transactions (snapshots) for `reader-consistent`.
struct RunReaders {
    let scenario: Scenario
    let executable: URL
    let journal: RunJournal

    /// Where the readers write their snapshots (beside the writers' histories, not among them).
    static func directory(history: URL) -> URL {
        history.deletingLastPathComponent().appendingPathComponent("readers")
    }

    /// Starts the readers; they read until the run kills them. `atRunStart`: on the store the run began with,
    /// before any program under test ran (see `harnessFailure`).
    func start(live: URL, history: URL, scratch: URL, children: ChildRegistry, atRunStart: Bool = false) throws {
        guard let spec = scenario.readers, spec.count > 0 else { return }
        let directory = Self.directory(history: history)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for index in 1...spec.count {
            var config = Reader.Configuration(store: live.path, output: directory.appendingPathComponent("reader-\(index).jsonl").path,
                                              index: index, hold: spec.hold, every: spec.every, epoch: journal.clock.epoch)
            config.onRunStartStore = atRunStart
            let configURL = scratch.appendingPathComponent("reader-\(index).json")
            try JSONEncoder().encode(config).write(to: configURL)
            _ = try children.start("reader-\(index)", executable: executable, arguments: ["reader", "--config", configURL.path])
            journal.note("reader-\(index)", .start, "read transactions held \(spec.hold) s, every \(spec.every) s")
        }
    }

    /// Quits the readers (a restore is done with the app closed; a held read transaction would also stand in
    /// the way of the restore's locks).
    static func stop(children: ChildRegistry) {
        children.killAll { $0.name.hasPrefix("reader-") }
    }

    /// A reader started on the store the run began with that could not read it (it printed
    /// `EnvironmentFailureLine`): the harness's failure, not the program's, so the run judges nothing.
    static func harnessFailure(children: ChildRegistry?) -> String? {
        for child in children?.all ?? [] where child.name.hasPrefix("reader-") {
            if let reason = RunEnvironment.failure(ofStepOutput: child.output) { return reason }
        }
        return nil
    }

    /// Size of the live store's -wal (0 when there is none): readers that hold snapshots make it grow, since
    /// no checkpoint can pass them; each backup and restore records it at its start and end.
    static func walBytes(_ live: URL) -> Int {
        var info = stat()
        return stat(live.path + "-wal", &info) == 0 ? Int(info.st_size) : 0
    }

    /// Every snapshot the readers took, for `reader-consistent` (nil when the run had no readers), and a line
    /// per reader for the report.
    func snapshots(history: URL) -> [ReaderSnapshot]? {
        guard let spec = scenario.readers, spec.count > 0 else { return nil }
        let directory = Self.directory(history: history)
        var all: [ReaderSnapshot] = []
        for index in 1...spec.count {
            let snapshots = ReaderSnapshot.load(directory.appendingPathComponent("reader-\(index).jsonl"))
            let longest = snapshots.map { $0.ended - $0.began }.max() ?? 0
            journal.note("reader-\(index)", .end, "\(snapshots.count) read transaction(s), longest \(String(format: "%.2f", longest)) s")
            all += snapshots
        }
        return all
    }
}
