import Foundation
import GRDB
import LifeboatCLI
import LifeboatTestSupport
import StoreCheck
import StoreModel
import Testing

/// Layouts real stores come in beyond the five fixtures: another file name (SwiftData's `default.store`), 2 KiB
/// pages, and an R*Tree virtual table with its shadow tables (as Photos libraries carry them).
@Suite struct RealLayoutVariantTests {
    @Test func defaultStoreWithSmallPagesAndAVirtualTable() async throws {
        let scratch = try Scratch("real-variants")
        let fixture = try RealStoreFixtures.copy("xcserver-1.2.0", into: scratch.path("fixture"))
        let live = scratch.path("live/default.store")
        try FileManager.default.createDirectory(at: live.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixture, to: live)
        let queue = try DatabaseQueue(path: live.path)
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: """
                CREATE VIRTUAL TABLE Z_RT_Asset_box USING rtree(Z_PK, minX, maxX, minY, maxY);
                INSERT INTO Z_RT_Asset_box VALUES (1, 0, 1, 0, 1), (2, 5, 6, 5, 6);
                PRAGMA journal_mode = DELETE;
                PRAGMA page_size = 2048;
                VACUUM;
                PRAGMA journal_mode = WAL;
                """)
        }
        try queue.close()
        let before = FolderDigest.of(live.deletingLastPathComponent())
        let report = try StoreVerifier.verify(live)
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(FolderDigest.of(live.deletingLastPathComponent()) == before)
        for strategy in ["replace", "backup-api", "vacuum-into", "file-copy-full", "migrate"] {
            let directory = scratch.path("backup-\(strategy)")
            #expect(await LifeboatMain.run(["backup", "--strategy", strategy, live.path, directory.path]) == 0, "\(strategy)")
            let backup = directory.appendingPathComponent("default.store")
            #expect(!(try StoreComparison.compare(backup, against: live).hasViolations), "\(strategy)")
        }
        // migrate carries the virtual table's rows through its module, which rebuilds the shadow tables.
        let copy = try DatabaseQueue(path: scratch.path("backup-migrate/default.store").path)
        let rows = try await copy.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM Z_RT_Asset_box") }
        try copy.close()
        #expect(rows == 2)
        // A backup with 2 KiB pages restored over a WAL store with 4 KiB pages: replace copies whatever the page size.
        let other = try RealStoreFixtures.copy("xcserver-1.2.0", into: scratch.path("other"))
        #expect(await LifeboatMain.run(["restore", "--strategy", "replace-then-readd", live.path, other.path]) == 0)
        #expect(!(try StoreComparison.compare(other, against: live).hasViolations))
        let restored = try DatabaseQueue(path: other.path)
        let pageSize = try await restored.read { try Int.fetchOne($0, sql: "PRAGMA page_size") }
        try restored.close()
        #expect(pageSize == 2048)
    }
}
