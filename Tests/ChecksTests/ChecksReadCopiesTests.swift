import Checks
import Foundation
import LifeboatTestSupport
import StoreCheck
import StoreModel
import Testing

/// Checking a store never changes it: every check reads a recovered private copy. A backup folder holding a
/// database and a `-wal` with no `-shm` (what a file copy of a live store, or a crash, leaves) is left exactly as
/// it was, byte for byte and name for name, by every check; a missing store reads as missing, an empty one as
/// empty, never as "not a Core Data store".
@Suite struct ChecksReadCopiesTests {
    /// Every name in `folder` (recursively) with its bytes.
    func listing(_ folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
            let data = isDirectory.boolValue ? Data() : try Data(contentsOf: url)
            result[url.path.replacingOccurrences(of: folder.path, with: "")] = data
        }
        return result
    }

    /// A backup folder with the store's database and its `-wal` (commits not yet checkpointed), no `-shm`.
    func walBackup(_ scratch: Scratch) throws -> (backup: URL, live: URL, notes: Int) {
        let live = try scratch.store("live/Library.sqlite", objects: 20, blobFraction: 0.3, blobSize: 128 * 1024)
        let app = try OpenApp(live)
        try app.insertNotes(5)
        let backup = scratch.path("backup/Library.sqlite")
        try FileManager.default.createDirectory(at: backup.deletingLastPathComponent(), withIntermediateDirectories: true)
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: live.path + suffix, toPath: backup.path + suffix) }
        let support = StoreFiles(live).supportFolder
        if FileManager.default.fileExists(atPath: support.path) {
            try FileManager.default.copyItem(at: support, to: StoreFiles(backup).supportFolder)
        }
        let count = try app.store.count("Note")
        try app.close()
        return (backup, live, count)
    }

    @Test func everyCheckLeavesTheBackupFolderAsItWas() throws {
        let scratch = try Scratch("read-copies")
        let (backup, live, notes) = try walBackup(scratch)
        #expect(FileManager.default.fileExists(atPath: backup.path + "-wal"))
        #expect(!StoreFiles(backup).externalFileNames().isEmpty, "external data files are read in place through the link")
        let before = try listing(backup.deletingLastPathComponent())
        let state = try StoreState.read(backup)
        #expect(state.notes.count == notes, "the -wal's commits are read (recovered on the copy)")
        // Every measurement a run takes of a store, on this backup.
        let measured = Measure.store(backup, label: "backup", state: true)
        #expect(measured.checks.value?.hasViolations == false, "\(String(describing: measured.checks.value?.violations))")
        #expect(measured.state?.value?.notes.count == notes)
        #expect(Measure.open(backup, model: .library, options: .lightweightMigration, recovery: "fail").value?.objects ?? 0 > 0)
        #expect(Measured.of { try StoreComparison.compare(backup, against: live) }.value?.hasViolations == false)
        #expect(try listing(backup.deletingLastPathComponent()) == before, "a check created, removed or changed a file beside the store")
    }

    @Test func aMissingStoreIsMissingAndAnEmptyOneEmpty() throws {
        let scratch = try Scratch("missing-empty")
        let missing = scratch.path("gone/Library.sqlite")
        #expect(throws: StoreError.missingStore(missing.standardizedFileURL.path)) { try StoreState.read(missing) }
        #expect(!FileManager.default.fileExists(atPath: missing.path), "reading created the missing store")
        let empty = scratch.path("empty/Library.sqlite")
        try FileManager.default.createDirectory(at: empty.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: empty)
        do {
            _ = try StoreState.read(empty)
            Issue.record("an empty file read as a store")
        } catch {
            #expect("\(error)".contains("empty (0 bytes)") && "\(error)".contains(empty.path), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.deletingLastPathComponent().path) == ["Library.sqlite"])
        let checks = Measure.store(empty, label: "backup", state: false).checks
        let evidence = (checks.value?.findings.map(\.description).joined() ?? "") + (checks.error ?? "")
        #expect(evidence.contains("empty"), "\(evidence)")
    }
}
