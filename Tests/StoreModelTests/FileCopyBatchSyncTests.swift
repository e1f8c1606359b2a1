import Foundation
import Testing
@testable import StoreModel

/// The support-folder copy syncs its files together (one batch) and still reports a failure.
@Suite struct FileCopyBatchSyncTests {
    @Test func folderCopyCarriesEveryFileAndAFailedSyncThrows() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("batch-sync-\(UUID().uuidString.prefix(8))")
        let source = root.appendingPathComponent("src"), destination = root.appendingPathComponent("dst/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for i in 0..<40 { try Data("blob \(i)".utf8).write(to: source.appendingPathComponent("f\(i)")) }
        #expect(try FileCopy.replaceFolder(destination, withCopyOf: source) == 40)
        for i in 0..<40 {
            #expect(try Data(contentsOf: destination.appendingPathComponent("f\(i)")) == Data("blob \(i)".utf8))
        }
        let files = (0..<40).map { destination.appendingPathComponent("f\($0)") } + [root.appendingPathComponent("missing")]
        #expect(throws: StoreError.self) { try FileCopy.syncAll(files) }
        try FileCopy.syncAll(Array(files.prefix(40)))
    }
}
