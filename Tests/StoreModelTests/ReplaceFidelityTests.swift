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
        // The page copy steps in lockstep with this test (the runner's gate): the support folder is staged before
        // the first step, then one step, then a writer commits a note with an attachment, then the copy runs on.
        let fifo = scratch.path("gate.fifo"), progress = scratch.path("gate.progress")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let options = ReplaceOptions(allowClone: false,
                                     backup: SQLiteBackup.Options(pagesPerStep: 1, gate: SQLiteBackup.Gate(fifo: fifo.path, progress: progress.path)))
        let result = Mutex<Result<ReplaceReport, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let outcome = Result { try PersistentStoreCoordinator(model: .library).replace(at: backup, from: live, options: options) }
            result.withLock { $0 = outcome }
            done.signal()
        }
        thread.start()
        let gate = open(fifo.path, O_WRONLY | O_CLOEXEC)
        #expect(gate >= 0)
        var token: UInt8 = 1
        #expect(write(gate, &token, 1) == 1)
        while ((try? String(contentsOf: progress, encoding: .utf8)) ?? "").split(separator: "\n").count < 2 { usleep(10_000) }
        try writer.save { try $0.insert(note) }
        close(gate)
        done.wait()
        let report = try #require(result.withLock { $0 }).get()
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
