import ArgumentParser
import Foundation
import Scenario
import StoreModel

/// `lifeboat generate`: builds a store of the library model from a seed.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "generate", abstract: "Build a Core Data-format store from a seed.")

    @Option(help: "Number of objects (folders, tags and notes).") var objects: Int = 1000
    @Option(help: "Share of notes with an attachment (0...1).") var blobFraction: Double = 0.1
    @Option(help: "Attachment size (e.g. 128KiB; values of 100KiB or more are stored externally).") var blobSize: ByteSize = ByteSize(bytes: 128 * 1024)
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

    func validate() throws {
        guard (0...50_000_000).contains(objects) else { throw ValidationError("--objects must be between 0 and 50000000") }
        guard blobSize.bytes <= ByteSizeText.maximumValueSize else {
            throw ValidationError("--blob-size must be at most \(ByteSizeText.maximumValueSize) bytes (256MiB)")
        }
        guard freeSpace.bytes <= 16 << 30 else { throw ValidationError("--free-space must be at most 16GiB") }
        guard (0...1).contains(blobFraction) else { throw ValidationError("--blob-fraction must be between 0 and 1") }
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
        var generator = StoreGenerator(objects: objects, blobFraction: blobFraction, blobSize: blobSize.bytes, seed: seed)
        generator.history = history
        generator.inheritance = inheritance
        generator.cloudKit = cloudKit
        generator.freeSpace = freeSpace.bytes
        let started = Date()
        let summary = try generator.generate(at: url, options: options)
        let size = (StoreFiles.size(url) ?? 0) + (StoreFiles.size(StoreFiles(url).wal) ?? 0)
        print("generated \(url.path): \(summary.folders) folders, \(summary.tags) tags, \(summary.notes) notes, \(summary.items) items, \(summary.attachments) attachments; \(size) bytes in .sqlite+-wal; \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
    }
}
