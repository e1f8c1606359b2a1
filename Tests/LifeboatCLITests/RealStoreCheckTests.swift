import Foundation
import LifeboatCLI
import LifeboatTestSupport
import StoreCheck
import StoreModel
import Testing

/// `lifeboat check` on stores Core Data wrote: clean, and truly read-only (no byte changed, no file created or
/// removed in the store's folder) on a writable folder, a read-only folder and a read-only file system.
@Suite(.serialized, .ownThread) struct RealStoreCheckTests {
    @Test(arguments: RealStoreFixtures.names)
    func checkIsCleanAndChangesNothing(_ fixture: String) async throws {
        let scratch = try Scratch("real-check")
        let store = try RealStoreFixtures.copy(fixture, into: scratch.path("store"))
        let before = FolderDigest.of(store.deletingLastPathComponent())
        let report = try StoreVerifier.verify(store)
        #expect(report.findings.isEmpty, "\(fixture): \(report.findings)")
        #expect(report.objectCounts.values.reduce(0, +) > 0)
        #expect(await LifeboatMain.run(["check", store.path]) == 0)
        #expect(await LifeboatMain.run(["check", store.path, "--against", store.path]) == 0)
        #expect(FolderDigest.of(store.deletingLastPathComponent()) == before)
    }

    /// The WAL fixture's objects live only in its -wal: the verdict must show them, and a copy of the .sqlite
    /// alone must not compare equal.
    @Test func verdictIncludesWhatTheWALHolds() async throws {
        let scratch = try Scratch("real-wal")
        let store = try RealStoreFixtures.copy("wibosco-wal", into: scratch.path("store"))
        let report = try StoreVerifier.verify(store)
        #expect(report.objectCounts.values.reduce(0, +) == 168)
        try FileManager.default.createDirectory(at: scratch.path("alone"), withIntermediateDirectories: true)
        let alone = scratch.path("alone").appendingPathComponent(store.lastPathComponent)
        try FileManager.default.copyItem(at: store, to: alone)
        #expect(await LifeboatMain.run(["check", alone.path, "--against", store.path]) == 1)
    }

    @Test func readOnlyFolderIsReadNotWritten() async throws {
        let scratch = try Scratch("real-rofolder")
        let store = try RealStoreFixtures.copy("wibosco-wal", into: scratch.path("store"))
        let folder = store.deletingLastPathComponent()
        let before = FolderDigest.of(folder)
        #expect(chmod(folder.path, 0o555) == 0)
        defer { chmod(folder.path, 0o755) }
        #expect(await LifeboatMain.run(["check", store.path, "--against", store.path]) == 0)
        #expect(try StoreVerifier.verify(store).objectCounts.values.reduce(0, +) == 168)
        #expect(FolderDigest.of(folder) == before)
    }

    /// A tmpfs of the test's own, remounted read-only: SQLite could not create a -shm there even as root.
    @Test func readOnlyFileSystemIsReadNotWritten() async throws {
        guard geteuid() == 0 else { return }
        let scratch = try Scratch("real-rofs")
        let mountPoint = scratch.path("mnt")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        guard Self.mount(["-t", "tmpfs", "-o", "size=16m", "tmpfs", mountPoint.path]) else {
            Issue.record("cannot mount a tmpfs at \(mountPoint.path)")
            return
        }
        defer { _ = Self.umount(mountPoint.path) }
        var stores: [URL] = []
        for fixture in RealStoreFixtures.names {
            stores.append(try RealStoreFixtures.copy(fixture, into: mountPoint.appendingPathComponent(fixture)))
        }
        #expect(Self.mount(["-o", "remount,ro", mountPoint.path]))
        let before = FolderDigest.of(mountPoint)
        for store in stores {
            #expect(await LifeboatMain.run(["check", store.path]) == 0, "\(store.lastPathComponent)")
            #expect(await LifeboatMain.run(["check", store.path, "--against", store.path]) == 0)
        }
        #expect(try StoreVerifier.verify(stores.first { $0.lastPathComponent.contains("WAL") } ?? stores[0])
            .objectCounts.values.reduce(0, +) > 0)
        #expect(FolderDigest.of(mountPoint) == before)
    }

    static func mount(_ arguments: [String]) -> Bool { run("/bin/mount", arguments) }
    static func umount(_ path: String) -> Bool { run("/bin/umount", [path]) }

    static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
