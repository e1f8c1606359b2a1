import ArgumentParser
import Foundation
import Scenario
import StoreModel

/// `lifeboat generate`: builds a store of the library model from a seed, of a number of objects or of a size.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate", abstract: "Build a Core Data-format store from a seed.",
        discussion: """
        With --size, objects are added until the store's size on disk (.sqlite, -wal and the .<Store>_SUPPORT folder)         reaches it, ending at most 5% above: --inline (the default) puts the attachments in the .sqlite (64KiB each,         under the external-storage threshold), so the .sqlite itself is that large; --external makes them files in         _EXTERNAL_DATA (256KiB each). Half the notes carry one unless --blob-fraction says otherwise.
        """)

    @Option(help: "Number of objects (folders, tags and notes).") var objects: Int = 1000
    @Option(help: ArgumentHelp("Size to reach on disk instead of a number of objects (e.g. 1GB, 200MiB).", valueName: "size")) var size: ByteSize?
    @Flag(help: "With --size: attachments inside the .sqlite (64KiB each unless --blob-size).") var inline = false
    @Flag(help: "With --size: attachments as external files in .<Store>_SUPPORT/_EXTERNAL_DATA (256KiB each unless --blob-size).") var external = false
    @Option(help: "Share of notes with an attachment (0...1; default 0.1, or 0.5 with --size).") var blobFraction: Double?
    @Option(help: "Attachment size (e.g. 128KiB; values of 100KiB or more are stored externally; default 128KiB).") var blobSize: ByteSize?
    @Option(help: "Seed: the same seed gives the same store.") var seed: UInt64 = 1
    @Option(help: "Store file name inside --out.") var name: String = "Library.sqlite"
    @Option(help: "Journal mode of the new store.") var journalMode: String = "wal"
    @Option(help: "Directory to create the store in.") var out: String
    @Flag(help: "Add to a store that already exists instead of refusing.") var append = false
    @Flag(help: "Give the store Core Data's persistent-history tables (ACHANGE, ATRANSACTION, ...), recorded into on every save.")
    var history = false
    @Flag(help: "Give the store entity inheritance: an Item hierarchy whose sub-entities share the root's table (Z_SUPER, Z_ENT, one Z_MAX).")
    var inheritance = false
    @Flag(name: .customLong("cloudkit"), help: "Give the store NSPersistentCloudKitContainer's ANSCK* mirroring tables and history (docs/cloudkit.md); `lifeboat mirror` exports its objects.")
    var cloudKit = false
    @Option(help: "Free pages (e.g. 1.1GiB) added to the file before the objects, as holes: the objects then lie at the end of a file this much larger, past SQLite's lock-byte page once it passes 1 GiB.")
    var freeSpace: ByteSize = ByteSize(bytes: 0)

    /// The attachment size to use: as given, or the one the size mode asks for.
    var attachmentBytes: Int {
        blobSize?.bytes ?? (size == nil ? 128 * 1024 : external ? 256 * 1024 : 64 * 1024)
    }

    func validate() throws {
        let threshold = StoreOptions().externalStorageThreshold
        if inline || external {
            guard size != nil else { throw ValidationError("--inline and --external go with --size") }
            guard !(inline && external) else { throw ValidationError("--inline and --external exclude each other") }
        }
        if let size {
            guard (1_000_000...(64 << 30)).contains(size.bytes) else { throw ValidationError("--size must be between 1MB and 64GiB") }
            if external, attachmentBytes < threshold {
                throw ValidationError("--external needs --blob-size of at least \(threshold) bytes (smaller values are stored inline)")
            }
            if !external, attachmentBytes >= threshold {
                throw ValidationError("--inline needs --blob-size below \(threshold) bytes (larger values are stored externally); use --external")
            }
            if blobFraction == 0 { throw ValidationError("--size needs attachments: --blob-fraction must be above 0") }
        }
        guard (0...50_000_000).contains(objects) else { throw ValidationError("--objects must be between 0 and 50000000") }
        guard attachmentBytes <= ByteSizeText.maximumValueSize else {
            throw ValidationError("--blob-size must be at most \(ByteSizeText.maximumValueSize) bytes (256MiB)")
        }
        guard freeSpace.bytes <= 16 << 30 else { throw ValidationError("--free-space must be at most 16GiB") }
        guard (0...1).contains(blobFraction ?? 0) else { throw ValidationError("--blob-fraction must be between 0 and 1") }
        guard StoreOptions.JournalMode(rawValue: journalMode.lowercased()) != nil else {
            throw ValidationError("--journal-mode must be one of \(StoreOptions.JournalMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        // Core Data stores go by any name: .sqlite, .storedata (iOS system stores), default.store (SwiftData).
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."), !["-wal", "-shm", "-journal"].contains(where: name.hasSuffix) else {
            throw ValidationError("--name must be a plain file name (e.g. Library.sqlite, Library.storedata, default.store)")
        }
    }

    func run() throws {
        let url = URL(cliPath: out).appendingPathComponent(name)
        if StoreFiles(url).exists, !append {
            throw CLIFailure.badInput("\(url.path) exists; pass --append to add to it or choose another --out")
        }
        var options = StoreOptions()
        options.journalMode = StoreOptions.JournalMode(rawValue: journalMode.lowercased()) ?? .wal
        var generator = StoreGenerator(objects: objects, blobFraction: blobFraction ?? (size == nil ? 0.1 : 0.5),
                                       blobSize: attachmentBytes, seed: seed)
        generator.history = history
        generator.inheritance = inheritance
        generator.cloudKit = cloudKit
        generator.freeSpace = freeSpace.bytes
        let started = Date()
        let summary: StoreGenerator.Summary
        if let size {
            let progress = Progress(total: size.bytes, label: "written", unit: .bytes)
            progress.tick()
            let made = try generator.generate(at: url, targetBytes: Int64(size.bytes), options: options) { bytes in
                progress.set(done: Int(min(bytes, Int64(size.bytes))))
            }
            progress.finish()
            summary = made.summary
        } else {
            let progress = Progress(total: nil, label: "notes")
            progress.tick()
            generator.progress = { done, total in progress.set(done: done, total: total) }
            summary = try generator.generate(at: url, options: options)
            progress.finish()
        }
        let database = StoreFiles.size(url) ?? 0, wal = StoreFiles.size(StoreFiles(url).wal) ?? 0
        let total = StoreSize.of(url)
        print("generated \(url.path): \(summary.folders) folders, \(summary.tags) tags, \(summary.notes) notes, \(summary.items) items, "
              + "\(summary.attachments) attachments; \(database + wal) bytes in .sqlite+-wal, \(total) bytes in all "
              + "(\(Progress.bytes(Int(total)))); \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
    }
}
