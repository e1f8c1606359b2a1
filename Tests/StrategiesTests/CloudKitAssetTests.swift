import Foundation
import LifeboatTestSupport
import StoreModel
import Testing

/// External data as CloudKit assets (docs/cloudkit.md, "Assets"), on real store files and a real zone directory:
/// the export uploads each external data file as an asset through the staging folder, and a device that syncs
/// down makes each asset an external data file of its own again.
@Suite struct CloudKitAssetTests {
    @Test func externalDataTravelsAsAssetsAndBecomesExternalFilesOnTheOtherDevice() throws {
        let scratch = try Scratch("ck-assets")
        let url = scratch.path("app/Library.sqlite")
        var generator = StoreGenerator(objects: 30, blobFraction: 0.3, blobSize: 128 * 1024, seed: 5)
        generator.cloudKit = true
        try generator.generate(at: url)
        let externalFiles = StoreFiles(url).externalFileNames()
        #expect(!externalFiles.isEmpty, "the generated store has attachments in _EXTERNAL_DATA")
        let zone = try CloudKitZone.create(at: scratch.path("cloud"))
        try CloudKitTests.sync(url, zone)

        // One asset per external data file; the record files themselves do not carry the bytes.
        let records = try zone.records()
        let assets = records.flatMap { ($0.assets ?? [:]).values }
        #expect(assets.count == externalFiles.count)
        #expect(try zone.describe().contains("attachment: asset "), "`lifeboat cloud show` lists each record's assets")
        for record in records where record.assets != nil {
            let stored = try String(contentsOf: scratch.path("cloud/records/\(record.recordName).json"), encoding: .utf8)
            #expect(stored.count < 64 * 1024, "record \(record.recordName) carries its asset inline")
            for (attribute, asset) in record.assets ?? [:] {
                #expect(FileManager.default.fileExists(atPath: zone.assetFile(asset).path))
                guard case .binary(let data)? = record.object.attributes[attribute] else {
                    Issue.record("record \(record.recordName) reads without its asset's data")
                    continue
                }
                #expect(CloudKitAssets.hash(data) == asset.hash)
            }
        }
        // Uploaded assets leave nothing in the staging folder.
        let staging = CloudKitAssets.stagingFolder(StoreFiles(url))
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []).isEmpty)

        // A second device syncs down: each asset is downloaded to its staging folder and becomes an external file.
        let other = scratch.path("other/Library.sqlite")
        var empty = StoreGenerator(objects: 0, seed: 9)
        empty.cloudKit = true
        try empty.generate(at: other)
        try CloudKitTests.sync(other, zone)
        #expect(StoreFiles(other).externalFileNames().count == externalFiles.count)
        let downloaded = try FileManager.default.contentsOfDirectory(atPath: CloudKitAssets.stagingFolder(StoreFiles(other)).path)
        #expect(Set(downloaded) == Set(assets.map(\.hash)))
        let theirs = try PersistentStore(at: other, model: .library)
        defer { try? theirs.close() }
        let mine = try PersistentStore(at: url, model: .library)
        defer { try? mine.close() }
        for note in try mine.objects("Note") where note.attributes["attachment"] != nil {
            #expect(try theirs.object("Note", id: note.id)?.attributes["attachment"] == note.attributes["attachment"])
        }
    }

    /// The staging folder is a cache in this model (docs/cloudkit.md): a device that lost it keeps every
    /// attachment, and its next sync has nothing to do.
    @Test func losingTheStagingFolderLosesNothing() throws {
        let scratch = try Scratch("ck-assets-staging")
        let url = scratch.path("app/Library.sqlite")
        var generator = StoreGenerator(objects: 20, blobFraction: 0.3, blobSize: 128 * 1024, seed: 6)
        generator.cloudKit = true
        try generator.generate(at: url)
        let zone = try CloudKitZone.create(at: scratch.path("cloud"))
        try CloudKitTests.sync(url, zone)
        let other = scratch.path("other/Library.sqlite")
        var empty = StoreGenerator(objects: 0, seed: 9)
        empty.cloudKit = true
        try empty.generate(at: other)
        try CloudKitTests.sync(other, zone)
        let files = StoreFiles(other).externalFileNames()
        #expect(!files.isEmpty)
        try FileManager.default.removeItem(at: CloudKitAssets.stagingFolder(StoreFiles(other)))
        let again = try CloudKitTests.sync(other, zone)
        #expect(again.importedNew == 0 && again.importedChanged == 0 && again.exportedNew == 0 && again.exportedChanged == 0)
        #expect(StoreFiles(other).externalFileNames() == files)
    }
}
