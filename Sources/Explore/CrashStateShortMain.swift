import Foundation
import GRDB
import StoreModel

/// A crash state whose main database file is missing or shorter than one page while its `-wal` holds committed
/// frames: the state of https://github.com/tursodatabase/turso/pull/4899 (a fresh database's first commits in a
/// valid `-wal`, page 1 of the main file never on disk). What the next launch finds there is measured, not
/// assumed: the state's two files are copied to a private directory and opened read-write there, as an app's
/// first open would; the observation says how many tables that open showed and whether the `-wal` survived it.
/// SQLite 3.40.1 (pagerOpenWalIfPresent) deletes a `-wal` found beside a database of 0 pages, so the copy is
/// the only thing ever opened: a check that opened the state itself would destroy what it judges.
struct CrashStateShortMain: Sendable, Codable, Equatable {
    /// Bytes of the main file (0 when it is missing).
    var mainBytes: Int
    var mainExists: Bool
    /// Committed transactions and frames in the `-wal` (`WriteAheadLog`).
    var walCommits: Int
    var walFrames: Int
    /// Tables `sqlite_master` listed after the open (0: the open saw an empty database).
    var tablesAfterOpen: Int
    /// Whether the `-wal` was still there after the open and a read (before the close, whose checkpoint removes it).
    var walKeptByOpen: Bool
    /// An error the open or the read returned, if any.
    var openError: String?

    /// The observation for the state at `database`, or nil when its main file is a page or more or its `-wal`
    /// carries no committed frame.
    static func observe(_ database: URL) -> CrashStateShortMain? {
        let walURL = URL(fileURLWithPath: database.path + "-wal")
        guard let walData = try? Data(contentsOf: walURL), let wal = WriteAheadLog.read(walData), wal.commits > 0 else { return nil }
        let size = StoreFiles.size(database)
        guard Int(size ?? 0) < wal.pageSize else { return nil }
        var observation = CrashStateShortMain(mainBytes: Int(size ?? 0), mainExists: size != nil, walCommits: wal.commits,
                                              walFrames: wal.committedFrames, tablesAfterOpen: 0, walKeptByOpen: false)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lifeboat-short-main-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let copy = directory.appendingPathComponent(database.lastPathComponent)
            if size != nil { try Data(contentsOf: database).write(to: copy) }
            try walData.write(to: URL(fileURLWithPath: copy.path + "-wal"))
            let queue = try PlainConnection.open(copy, busyTimeout: 1)
            defer { try? queue.close() }
            observation.tablesAfterOpen = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0 }
            // Looked at while the connection is still open: closing the last connection of a WAL database
            // checkpoints and removes the -wal, which is no loss; what the open itself did is the finding.
            observation.walKeptByOpen = FileManager.default.fileExists(atPath: copy.path + "-wal")
        } catch {
            observation.openError = "\(error)"
            observation.walKeptByOpen = FileManager.default.fileExists(atPath: directory.appendingPathComponent(database.lastPathComponent + "-wal").path)
        }
        return observation
    }

    /// One line for reports: the state's files and what opening them did.
    var description: String {
        let main = mainExists ? "a \(mainBytes)-byte main file" : "no main file"
        let opened = openError.map { "the open failed (\($0))" } ?? (tablesAfterOpen == 0 ? "opening it showed an empty database" : "opening it showed \(tablesAfterOpen) table(s)")
        return "\(main) beside a -wal with \(walCommits) committed transaction(s) in \(walFrames) frame(s): \(opened), and the -wal was \(walKeptByOpen ? "kept" : "deleted")"
    }
}
