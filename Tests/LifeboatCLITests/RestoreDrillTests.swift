import ChildProcesses
import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Testing

/// `lifeboat restore-drill`: a good backup of a real Core Data store (Tests/Fixtures/RealStores, MIT-licensed, taken
/// byte for byte) restored with a plain restore script passes, and its evidence validates against
/// docs/schemas/lifeboat.restore-drill-1.schema.json; a truncated copy, a backup missing its attachments, a 0-byte
/// database from an empty dump and a backup older than the stated freshness each fail with their reason.
@Suite struct RestoreDrillTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Copies a backup folder back as the store's folder.
    static let copyRestore = #"cp -R "$LIFEBOAT_BACKUP"/. "$(dirname "$LIFEBOAT_STORE")/""#

    /// Runs the drill and returns its exit code and evidence (nil when none was written).
    static func drill(_ scratch: Scratch, _ arguments: [String]) async throws -> (Int32, [String: Any]?, URL?) {
        let evidence = scratch.path("evidence")
        let code = await LifeboatMain.run(["restore-drill"] + arguments + ["--evidence", evidence.path, "--scratch", scratch.path("scratch").path])
        guard let folder = try? FileManager.default.contentsOfDirectory(atPath: evidence.path).first(where: { $0.hasPrefix("restore-drill-") }) else {
            return (code, nil, nil)
        }
        let file = evidence.appendingPathComponent(folder).appendingPathComponent("evidence.json")
        return (code, try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any], file)
    }

    static func validate(_ file: URL) throws {
        let outcome = try ChildProcesses.run(ChildSpec(name: "check-jsonschema", executable: root.appendingPathComponent(".venv/bin/check-jsonschema").path,
                                                       arguments: ["--schemafile", root.appendingPathComponent("docs/schemas/lifeboat.restore-drill-1.schema.json").path, file.path]),
                                             timeout: 120)
        #expect(outcome.termination.exitCode == 0, "\(outcome.output)")
    }

    static func check(_ evidence: [String: Any]?, _ name: String) -> String? {
        ((evidence?["checks"] as? [[String: Any]])?.first { $0["name"] as? String == name })?["status"] as? String
    }

    static func reasons(_ evidence: [String: Any]?) -> [String] { evidence?["reasons"] as? [String] ?? [] }

    @Test func aGoodBackupOfARealStorePassesWithEvidenceThatValidates() async throws {
        let scratch = try Scratch("drill-good")
        let database = try RealStoreFixtures.copy("xcserver-1.2.0", into: scratch.path("backup"))
        let live = try RealStoreFixtures.copy("xcserver-1.2.0", into: scratch.path("live"))
        let before = FolderDigest.of(scratch.path("backup"))
        let (code, evidence, file) = try await Self.drill(scratch, ["--backup", scratch.path("backup").path, "--restore", Self.copyRestore,
                                                                     "--live", live.path, "--max-age", "1h"])
        #expect(code == 0, "\(Self.reasons(evidence))")
        #expect(evidence?["passed"] as? Bool == true)
        for name in ["backup-present", "freshness", "restore-succeeded", "restored-store", "opens", "integrity", "bookkeeping", "attachments", "objects", "against-live"] {
            #expect(Self.check(evidence, name) == "pass", "\(name)")
        }
        let restored = try #require(evidence?["restored"] as? [String: Any])
        #expect(restored["storeName"] as? String == database.lastPathComponent)
        #expect(((restored["objects"] as? [String: Int])?.values.reduce(0, +) ?? 0) > 0)
        #expect((evidence?["backup"] as? [String: Any])?["kind"] as? String == "folder")
        try Self.validate(try #require(file))
        #expect(FileManager.default.fileExists(atPath: file!.deletingLastPathComponent().appendingPathComponent("evidence.md").path))
        // The user's backup is never touched: the restore read a private copy.
        #expect(FolderDigest.of(scratch.path("backup")) == before)
    }

    @Test func aTruncatedCopyFails() async throws {
        let scratch = try Scratch("drill-truncated")
        let database = try RealStoreFixtures.copy("xcserver-1.2.0", into: scratch.path("backup"))
        let size = try #require((try FileManager.default.attributesOfItem(atPath: database.path)[.size] as? NSNumber)?.int64Value)
        let handle = try FileHandle(forWritingTo: database)
        try handle.truncate(atOffset: UInt64(size / 3))
        try handle.close()
        let (code, evidence, file) = try await Self.drill(scratch, ["--backup", scratch.path("backup").path, "--restore", Self.copyRestore])
        #expect(code == 1)
        #expect(evidence?["passed"] as? Bool == false)
        #expect(Self.check(evidence, "opens") == "fail" || Self.check(evidence, "integrity") == "fail", "\(Self.reasons(evidence))")
        #expect(Self.reasons(evidence).contains { $0.hasPrefix("opens:") || $0.hasPrefix("integrity:") })
        try Self.validate(try #require(file))
    }

    @Test func aBackupMissingItsAttachmentsFails() async throws {
        let scratch = try Scratch("drill-attachments")
        // No real store carries external data files (Tests/Fixtures/RealStores/README.md): a generated one does.
        try scratch.store("backup/Library.sqlite", objects: 40, blobFraction: 0.5, blobSize: 200 * 1024)
        let external = scratch.path("backup/.Library_SUPPORT/_EXTERNAL_DATA")
        #expect(try FileManager.default.contentsOfDirectory(atPath: external.path).count > 0)
        try FileManager.default.removeItem(at: external)
        let (code, evidence, _) = try await Self.drill(scratch, ["--backup", scratch.path("backup").path, "--restore", Self.copyRestore])
        #expect(code == 1)
        #expect(Self.check(evidence, "attachments") == "fail")
        #expect(Self.reasons(evidence).contains { $0.hasPrefix("attachments: ") })
    }

    @Test func aZeroByteDatabaseFromAnEmptyDumpFails() async throws {
        let scratch = try Scratch("drill-empty-dump")
        let dump = scratch.path("backup.sql")
        try Data().write(to: dump)
        // A restore from a dump as people write it: empty the target, load the dump; sqlite3 exits 0 on an empty one.
        let (code, evidence, file) = try await Self.drill(scratch, ["--backup", dump.path, "--store-name", "Library.sqlite",
                                                                     "--restore", #": > "$LIFEBOAT_STORE" && sqlite3 "$LIFEBOAT_STORE" < "$LIFEBOAT_BACKUP""#])
        #expect(code == 1)
        #expect(Self.check(evidence, "restore-succeeded") == "pass")
        #expect(Self.check(evidence, "restored-store") == "fail")
        #expect(Self.reasons(evidence).contains("restored-store: the restore left a 0-byte Library.sqlite (an empty dump restores an empty database and exits 0)"))
        #expect(Self.check(evidence, "backup-present") == "fail")
        try Self.validate(try #require(file))
    }

    @Test func aBackupOlderThanTheStatedFreshnessFails() async throws {
        let scratch = try Scratch("drill-stale")
        let database = try RealStoreFixtures.copy("bergier-v2.0.0", into: scratch.path("backup"))
        let tenDaysAgo = Date().addingTimeInterval(-10 * 86400)
        try FileManager.default.setAttributes([.modificationDate: tenDaysAgo], ofItemAtPath: database.path)
        let (code, evidence, _) = try await Self.drill(scratch, ["--backup", scratch.path("backup").path, "--restore", Self.copyRestore, "--max-age", "7d"])
        #expect(code == 1)
        #expect(Self.check(evidence, "freshness") == "fail")
        #expect(Self.check(evidence, "integrity") == "pass")
        #expect(Self.reasons(evidence).contains { $0.hasPrefix("freshness: ") && $0.contains("10 d old, older than the stated 7 d") })
    }

    @Test func badInputExitsTwoAndWritesNoEvidence() async throws {
        let scratch = try Scratch("drill-bad")
        var (code, evidence, _) = try await Self.drill(scratch, ["--backup", scratch.path("nothing").path, "--restore", "true"])
        #expect(code == 2 && evidence == nil)
        try FileManager.default.createDirectory(at: scratch.path("backup"), withIntermediateDirectories: true)
        (code, evidence, _) = try await Self.drill(scratch, ["--backup", scratch.path("backup").path, "--restore", "sh \(scratch.path("no-such-restore.sh").path)"])
        #expect(code == 2 && evidence == nil)
        (code, _, _) = try await Self.drill(scratch, ["--backup", scratch.path("backup").path, "--restore", "true", "--max-age", "soon"])
        #expect(code == 2)
    }
}
