import Foundation
import LifeboatTestSupport
import SeededRandomness
import StoreModel
import Testing

/// `generate --size`: the store's size on disk ends within 5% above the target, with the attachments where the
/// mode puts them (inline in the .sqlite, or files in _EXTERNAL_DATA), and the -wal folded in.
@Suite struct SizedGenerationTests {
    /// Sizes of at least 40 attachments: one attachment is then at most 2.5% of the target.
    @Test(arguments: [(40_000, 0.5, 12_000_000), (300_000, 0.5, 24_000_000), (300_000, 0.1, 12_000_000), (0, 0.0, 4_000_000)])
    func theSizeIsReachedWithinFivePercent(_ input: (Int, Double, Int64)) throws {
        let (blobSize, fraction, target) = input
        let scratch = try Scratch("sized")
        let url = scratch.path("s/Library.sqlite")
        let seen = Seen()
        let made = try StoreGenerator(objects: 0, blobFraction: fraction, blobSize: blobSize, seed: 4)
            .generate(at: url, targetBytes: target) { seen.add($0) }
        #expect(made.bytes == StoreSize.of(url))
        #expect(made.bytes >= target && Double(made.bytes) <= Double(target) * 1.05, "\(made.bytes) for \(target)")
        #expect((made.summary.attachments > 0) == (fraction > 0) && made.passes >= 2)
        #expect(!seen.values.isEmpty && seen.values == seen.values.sorted(), "progress only grows: \(seen.values)")
        let files = StoreFiles(url)
        #expect(StoreFiles.size(files.wal) ?? 0 == 0, "the -wal is checkpointed into the database")
        if blobSize >= StoreOptions().externalStorageThreshold {
            #expect(files.externalFileNames().count == made.summary.attachments)
        } else {
            #expect(files.externalFileNames().isEmpty)
            #expect(Double(StoreFiles.size(url) ?? 0) >= Double(target) * 0.95, "inline: the .sqlite itself is the size")
        }
    }

    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Int64] = []
        func add(_ value: Int64) { lock.withLock { list.append(value) } }
        var values: [Int64] { lock.withLock { list } }
    }
}

/// The attachment bytes are the generator's draws in memory order, whole words stored at once: the same bytes
/// a byte-by-byte copy of each draw gives, for every length (a seed must keep naming the same store).
@Suite struct SeededBytesTests {
    @Test func bytesAreTheDrawsInMemoryOrder() {
        for count in [0, 1, 7, 8, 9, 64, 1000, 65_537] {
            var fast = SeededRandom(seed: 42)
            var slow = SeededRandom(seed: 42)
            var expected: [UInt8] = []
            while expected.count < count { withUnsafeBytes(of: slow.next()) { expected += $0 } }
            #expect(fast.bytes(count) == Array(expected.prefix(count)), "length \(count)")
            #expect(fast.state == slow.state, "the same number of draws for length \(count)")
        }
    }
}
