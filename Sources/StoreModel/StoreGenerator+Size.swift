import Foundation
import GRDB
import Synchronization

/// On-disk size of a store as `generate --size` and the bench count it: the database, its -wal/-journal, and
/// the support folder (external data).
public enum StoreSize {
    public static func of(_ database: URL) -> Int64 {
        let fileManager = FileManager.default
        let base = database.path
        var total: Int64 = 0
        for path in [base, base + "-wal", base + "-journal"] { total += fileSize(path) ?? 0 }
        let name = database.deletingPathExtension().lastPathComponent
        let support = database.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT").path
        if let walker = fileManager.enumerator(atPath: support) {
            while let relative = walker.nextObject() as? String { total += fileSize(support + "/" + relative, regularOnly: true) ?? 0 }
        }
        return total
    }

    static func fileSize(_ path: String, regularOnly: Bool = false) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        if regularOnly, (info.st_mode & S_IFMT) != S_IFREG { return nil }
        return Int64(info.st_size)
    }
}

extension StoreGenerator {
    /// What a sized generation made: every pass's objects added up, and the size reached.
    public struct SizedSummary: Sendable {
        public var summary = Summary()
        public var bytes: Int64 = 0
        public var passes = 0

        mutating func add(_ pass: Summary) {
            summary.folders += pass.folders
            summary.tags += pass.tags
            summary.notes += pass.notes
            summary.items += pass.items
            summary.attachments += pass.attachments
            passes += 1
        }
    }

    /// Generates until the store's size on disk (`StoreSize`) reaches `targetBytes`, ending at most a few percent
    /// above it: a small first pass measures what an object's row costs on this store (row, indexes, links; the
    /// attachments' bytes are known), a main pass fills 97% of what is left, and top-ups (each its own seed, derived from
    /// this generator's) close the gap. `objects` is ignored; the other settings apply to every pass.
    ///
    /// Faster than saving the same objects in a live store: the passes write with no journal and no syncs
    /// (in WAL mode every page would be written twice, to the -wal and again at the checkpoint), then the store is
    /// put in `options`' journal mode (WAL: the mode Core Data creates) and the database, every attachment file
    /// and their folders are made durable at once. A generation cut short leaves an unusable store, as any
    /// half-made one is. `progress` gets the bytes reached, about every batch.
    public func generate(at url: URL, targetBytes: Int64, options: StoreOptions = StoreOptions(),
                         progress: (@Sendable (Int64) -> Void)? = nil) throws -> SizedSummary {
        var result = SizedSummary()
        var bulk = options
        bulk.journalMode = .off
        bulk.synchronous = .off
        let reached = Reached(progress)
        var size = StoreSize.of(url)
        let blobShare = blobFraction * Double(blobSize)
        // A note's row, indexes and links: about 600 bytes until measured. The attachments' share is known
        // (fraction x size), so a small pass's luck in drawing attachments does not skew the estimate.
        var rowBytes = 600.0
        var perObject: Double { rowBytes + blobShare }
        while size < targetBytes {
            let missing = Double(targetBytes - size)
            // Each later pass fills 90% of what is left: the pass that crosses the target is small, so the
            // overshoot is a fraction of a pass, not the luck of a big one's attachment draws.
            let share = result.passes == 0 ? 0.03 : 0.9
            let count = max(result.passes == 0 ? 5 : 1, Int((missing * share / perObject).rounded(.up)))
            var pass = self
            pass.objects = count
            pass.syncEachAttachment = false
            pass.seed = seed &+ UInt64(result.passes) &* 7919
            let before = size
            let estimate = Double(count) * perObject
            pass.progress = { done, total in
                reached.report(min(before + Int64(estimate * Double(done) / Double(max(1, total))), targetBytes - 1))
            }
            let summary = try pass.generate(at: url, options: bulk)
            size = StoreSize.of(url)
            reached.report(size)
            result.add(summary)
            let rows = Double(size - before) - Double(summary.attachments) * Double(blobSize)
            if summary.total > 0, rows > 0 { rowBytes = max(64, rows / Double(summary.total)) }
        }
        // The journal mode asked for (a fresh WAL store has an empty -wal: nothing to checkpoint), then
        // everything made durable: the generated store stands for an app's past, long written back.
        let connection = try PlainConnection.open(url)
        try connection.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = \(options.journalMode.rawValue.uppercased())")
            if options.journalMode == .wal { _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        try connection.close()
        let files = StoreFiles(url)
        try FileCopy.syncAll([url] + files.externalFileNames().map { files.externalFile($0) })
        for folder in [files.externalDataFolder, files.externalDataFolder.deletingLastPathComponent(), url.deletingLastPathComponent()]
        where FileManager.default.fileExists(atPath: folder.path) {
            try FileCopy.syncDirectory(folder)
        }
        result.bytes = StoreSize.of(url)
        return result
    }

    /// The bytes reported so far, never less than before: a pass's estimate may run ahead of what it wrote.
    private final class Reached: Sendable {
        let progress: (@Sendable (Int64) -> Void)?
        let highest = Mutex<Int64>(0)
        init(_ progress: (@Sendable (Int64) -> Void)?) { self.progress = progress }

        func report(_ bytes: Int64) {
            guard let progress else { return }
            let value = highest.withLock { highest in
                highest = max(highest, bytes)
                return highest
            }
            progress(value)
        }
    }
}
