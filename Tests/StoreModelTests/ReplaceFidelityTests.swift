import Foundation
import GRDB
import LifeboatTestSupport
import SeededRandomness
import StoreModel
import Synchronization
import Testing

/// replace in Core Data's order (docs/fidelity.md): the support folder is staged before the pages, outside their
/// snapshot, and swapped in by rename after them; destination options are applied; a destination another process
/// holds open is never renamed over.
@Suite struct ReplaceFidelityTests {
    @Test func aBlobWrittenDuringThePageCopyIsReferencedButNotCopied() throws {
        let scratch = try Scratch("replace-order")
        let live = try scratch.store(objects: 150, blobFraction: 0.1, blobSize: 120_000)
        let backup = scratch.path("backup/Library.sqlite")
        let writer = try PersistentStore(at: live, model: .library)
        defer { try? writer.close() }
        var random = SeededRandom(seed: 5)
        var note = StoreGenerator.note(serial: 77_001, random: &random, folders: [], tags: [])
        note.attributes["attachment"] = .binary(Data(repeating: 9, count: 130_000))
        let inserted = Mutex(false)
        let added = note
        let thread = Thread {
            usleep(150_000)
            _ = try? writer.save { try $0.insert(added) }
            inserted.withLock { $0 = true }
        }
        thread.start()
        // A slow page copy (one page per step) that restarts after the insert and ends with it.
        var options = ReplaceOptions(allowClone: false)
        options.backup = SQLiteBackup.Options(pagesPerStep: 1, stepDelay: 0.002)
        let report = try PersistentStoreCoordinator(model: .library).replace(at: backup, from: live, options: options)
        #expect(inserted.withLock { $0 }, "the writer committed during the page copy")
        let copy = try PersistentStore(at: backup, model: .library, options: { var o = StoreOptions(); o.readOnly = true; return o }())
        defer { try? copy.close() }
        let read = try #require(try copy.object("Note", id: note.id), "the copied database holds the note")
        #expect(read.attributes["attachment"] == nil, "its file was written after the support folder was staged: it reads as nil")
        #expect(report.externalFiles == StoreFiles(backup).externalFileNames().count)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: backup.deletingLastPathComponent().path)
            .filter { $0.contains("_transsrc_") || $0.contains("_transdst_") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func destinationOptionsSetJournalModeAndPageSize() throws {
        let scratch = try Scratch("replace-options")
        let live = try scratch.store(objects: 40)
        let backup = scratch.path("backup/Library.sqlite")
        let options = ReplaceOptions(allowClone: false, journalMode: .delete, pageSize: 8192)
        try PersistentStoreCoordinator(model: .library).replace(at: backup, from: live, options: options)
        let queue = try DatabaseQueue(path: backup.path)
        defer { try? queue.close() }
        let (mode, size, integrity) = try queue.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA page_size"),
             try String.fetchOne(db, sql: "PRAGMA integrity_check"))
        }
        #expect(mode == "delete" && size == 8192 && integrity == "ok")
    }

    @Test func anotherProcessHoldingTheDestinationIsSeen() throws {
        let scratch = try Scratch("open-files")
        let file = scratch.path("Library.sqlite")
        try Data("x".utf8).write(to: file)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", "exec 3<\"$0\"; echo ready; exec sleep 3", file.path]
        let pipe = Pipe()
        holder.standardOutput = pipe
        try holder.run()
        defer { holder.terminate(); holder.waitUntilExit() }
        _ = pipe.fileHandleForReading.availableData
        let found = OpenFiles.holder(of: [file])
        #expect(found == holder.processIdentifier)
        #expect(OpenFiles.holder(of: [scratch.path("nothing.sqlite")]) == nil)
    }
}
