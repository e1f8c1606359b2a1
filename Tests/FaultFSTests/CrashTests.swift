import CLifeboatSys
import Foundation
import Testing
@testable import FaultFS
#if canImport(Glibc)
import Glibc
#endif

extension MountTests {
    /// The crash model: what survives `crash` in each mode.
    @Suite struct CrashTests {
        /// A file whose directory entry is durable, with durable contents `base`.
        func durableFile(_ m: MountFixture, _ name: String, _ base: [UInt8]) {
            #expect(Posix.write(m.path(name), base, fsync: true) == .ok(base.count))
            #expect(Posix.fsyncDir(m.mnt.path) == .ok(0))
        }

        @Test func fsyncedWriteSurvivesAndUnsyncedWriteIsLost() throws {
            try withMount { m in
                durableFile(m, "a", Array("AAAA".utf8))
                #expect(Posix.write(m.path("a"), Array("BBBB".utf8), at: 4) == .ok(4))
                #expect(Posix.contents(m.path("a")) == Array("AAAABBBB".utf8))
                // The backing file still holds only the durable bytes.
                #expect(Posix.contents(m.backingPath("a")) == Array("AAAA".utf8))
                #expect(try m.fs.status().files.map(\.path) == ["/a"])
                let report = try m.fs.crash(.keepNone)
                #expect(report.kept.isEmpty && report.dropped.count == 1)
                #expect(Posix.contents(m.path("a")) == Array("AAAA".utf8))
                #expect(try m.fs.status().files.isEmpty)
            }
        }

        @Test func createWithoutDirectoryFsyncIsLostAndWithItSurvives() throws {
            try withMount { m in
                #expect(Posix.write(m.path("lost"), [1, 2, 3], fsync: true) == .ok(3))
                try m.fs.crash(.keepNone)
                #expect(!Posix.exists(m.path("lost")))
                #expect(!Posix.exists(m.backingPath("lost")))

                #expect(Posix.write(m.path("kept"), [4, 5, 6], fsync: true) == .ok(3))
                #expect(Posix.fsyncDir(m.mnt.path) == .ok(0))
                try m.fs.crash(.keepNone)
                #expect(Posix.contents(m.path("kept")) == [4, 5, 6])
            }
        }

        @Test func unlinkAndRenameWithoutDirectoryFsyncAreUndone() throws {
            try withMount { m in
                durableFile(m, "x", [1])
                durableFile(m, "y", [2])
                #expect(unlink(m.path("x")) == 0)
                #expect(rename(m.path("y"), m.path("z")) == 0)
                #expect(mkdir(m.path("d"), 0o755) == 0)
                #expect(!Posix.exists(m.path("x")) && Posix.exists(m.path("z")))
                let entries = try m.fs.status().pendingEntries.map(\.op)
                #expect(entries == ["unlink", "rename", "mkdir"])
                try m.fs.crash(.keepNone)
                #expect(Posix.contents(m.path("x")) == [1])
                #expect(Posix.contents(m.path("y")) == [2])
                #expect(!Posix.exists(m.path("z")) && !Posix.exists(m.path("d")))
                // Nothing of the hidden trash shows on the mount.
                let names = try FileManager.default.contentsOfDirectory(atPath: m.mnt.path).sorted()
                #expect(names == ["x", "y"])
            }
        }

        @Test func renameOverAnExistingFileIsUndoneWithTheVictimRestored() throws {
            try withMount { m in
                durableFile(m, "db", Array("old".utf8))
                durableFile(m, "tmp", Array("new".utf8))
                #expect(rename(m.path("tmp"), m.path("db")) == 0)
                #expect(Posix.contents(m.path("db")) == Array("new".utf8))
                try m.fs.crash(.keepNone)
                #expect(Posix.contents(m.path("db")) == Array("old".utf8))
                #expect(Posix.contents(m.path("tmp")) == Array("new".utf8))
                // With the directory fsync the rename is durable and the victim gone.
                #expect(rename(m.path("tmp"), m.path("db")) == 0)
                #expect(Posix.fsyncDir(m.mnt.path) == .ok(0))
                try m.fs.crash(.keepNone)
                #expect(Posix.contents(m.path("db")) == Array("new".utf8))
                #expect(!Posix.exists(m.path("tmp")))
            }
        }

        /// A rename over an empty directory is one exchange plus a move of the victim to the trash (a directory
        /// cannot be linked there first): undone by a crash, the victim comes back as the same directory.
        @Test func renameOverAnEmptyDirectoryIsUndoneWithTheVictimRestored() throws {
            try withMount { m in
                #expect(mkdir(m.path("src"), 0o755) == 0 && mkdir(m.path("dst"), 0o700) == 0)
                #expect(Posix.write(m.path("src/f"), Array("data".utf8), fsync: true) == .ok(4))
                #expect(Posix.fsyncDir(m.path("src")) == .ok(0) && Posix.fsyncDir(m.mnt.path) == .ok(0))
                var before = stat()
                #expect(lstat(m.backingPath("dst"), &before) == 0)
                #expect(rename(m.path("src"), m.path("dst")) == 0)
                #expect(Posix.contents(m.path("dst/f")) == Array("data".utf8))
                #expect(!Posix.exists(m.path("src")))
                #expect(try FileManager.default.contentsOfDirectory(atPath: m.mnt.path).sorted() == ["dst"])
                try m.fs.crash(.keepNone)
                #expect(Posix.contents(m.path("src/f")) == Array("data".utf8))
                var after = stat()
                #expect(lstat(m.backingPath("dst"), &after) == 0)
                #expect(after.st_ino == before.st_ino && after.st_mode & 0o777 == 0o700)
                #expect(try FileManager.default.contentsOfDirectory(atPath: m.path("dst")).isEmpty)
            }
        }

        /// The victim of a rename over a file with another name (a hard link) is linked into the trash before the
        /// rename: its other name counts one link on the mount, and a crash restores the replaced name.
        @Test func renameOverAHardLinkedFileKeepsTheLinkCountAndIsUndone() throws {
            try withMount { m in
                durableFile(m, "db", Array("old".utf8))
                #expect(link(m.path("db"), m.path("db-link")) == 0)
                durableFile(m, "tmp", Array("new".utf8))
                #expect(rename(m.path("tmp"), m.path("db")) == 0)
                var st = stat()
                #expect(lstat(m.path("db-link"), &st) == 0 && st.st_nlink == 1)
                #expect(Posix.contents(m.path("db")) == Array("new".utf8))
                try m.fs.crash(.keepNone)
                #expect(Posix.contents(m.path("db")) == Array("old".utf8))
                #expect(Posix.contents(m.path("tmp")) == Array("new".utf8))
                #expect(lstat(m.path("db"), &st) == 0 && st.st_nlink == 2)
            }
        }

        @Test func tornWriteKeepsSectorsUpToTheCutThenZeros() throws {
            try withMount(seed: 77) { m in
                durableFile(m, "t", [UInt8](repeating: 0x61, count: 4096))
                #expect(Posix.write(m.path("t"), [UInt8](repeating: 0x62, count: 2048), at: 512) == .ok(2048))
                let report = try m.fs.crash(.torn(fill: .zeros))
                let cut = try #require(report.tornCut)
                #expect(report.tornSeq != nil)
                #expect(cut % 512 == 0 && cut > 512 && cut < 2560)
                var expected = [UInt8](repeating: 0x61, count: 4096)
                for i in 512..<Int(cut) { expected[i] = 0x62 }
                for i in Int(cut)..<2560 { expected[i] = 0 }
                #expect(Posix.contents(m.path("t")) == expected)
            }
        }

        @Test func keepPrefixKeepsExactlyTheFirstNWrites() throws {
            try withMount { m in
                durableFile(m, "p", [])
                for i in 0..<5 {
                    #expect(Posix.write(m.path("p"), [UInt8](repeating: UInt8(i + 1), count: 100), at: Int64(i * 100)) == .ok(100))
                }
                let report = try m.fs.crash(.keepPrefix(3))
                #expect(report.kept.count == 3 && report.dropped.count == 2)
                var expected: [UInt8] = []
                for i in 0..<3 { expected += [UInt8](repeating: UInt8(i + 1), count: 100) }
                #expect(Posix.contents(m.path("p")) == expected)
            }
        }

        @Test func reorderKeepsTheReportedSubsetAndIsDeterministic() throws {
            func run(seed: UInt64) throws -> (kept: [UInt64], contents: [UInt8]?, writeSeqs: [UInt64]) {
                var result: (kept: [UInt64], contents: [UInt8]?, writeSeqs: [UInt64]) = ([], nil, [])
                try withMount(seed: seed) { m in
                    durableFile(m, "r", [UInt8](repeating: 0, count: 800))
                    for i in 0..<8 {
                        #expect(Posix.write(m.path("r"), [UInt8](repeating: UInt8(i + 1), count: 100), at: Int64(i * 100)) == .ok(100))
                    }
                    let report = try m.fs.crash(.reorder)
                    let seqs = (report.kept + report.dropped).sorted()
                    #expect(seqs.count == 8)
                    result = (report.kept, Posix.contents(m.path("r")), seqs)
                }
                return result
            }
            let a = try run(seed: 5), b = try run(seed: 5)
            #expect(a.kept.map { $0 - a.writeSeqs[0] } == b.kept.map { $0 - b.writeSeqs[0] })
            var expected = [UInt8](repeating: 0, count: 800)
            for (i, seq) in a.writeSeqs.enumerated() where a.kept.contains(seq) {
                for j in i * 100..<(i + 1) * 100 { expected[j] = UInt8(i + 1) }
            }
            #expect(a.contents == expected)
        }

        /// Reorder keeps any subset of the data ops but only a prefix of the entry changes: a restore's rename
        /// never survives without the unlink of the old `-wal` before it (the state that is the new database
        /// beside the old store's `-wal`), whatever the seed.
        @Test func reorderKeepsAPrefixOfTheEntryChanges() throws {
            var lengths: Set<Int> = []
            for seed in UInt64(1)...8 {
                try withMount(seed: seed) { m in
                    durableFile(m, "db", [1, 1, 1, 1])
                    durableFile(m, "db-wal", [2, 2, 2, 2])
                    #expect(unlink(m.path("db-wal")) == 0)
                    #expect(Posix.write(m.path("db.restoring"), [3, 3, 3, 3], fsync: true) == .ok(4))
                    #expect(rename(m.path("db.restoring"), m.path("db")) == 0)
                    for i in 0..<6 { #expect(Posix.write(m.path("c\(i)"), [4]) == .ok(1)) }
                    try m.fs.crash(.reorder)
                    let renamed = Posix.contents(m.path("db")) == [3, 3, 3, 3]
                    // In order: the unlink, the create, the rename, the six creates.
                    let survived = [!Posix.exists(m.path("db-wal")), Posix.exists(m.path("db.restoring")) || renamed, renamed]
                        + (0..<6).map { Posix.exists(m.path("c\($0)")) }
                    let length = survived.prefix { $0 }.count
                    #expect(!survived.dropFirst(length).contains(true), "seed \(seed): entries survived out of order: \(survived)")
                    if renamed { #expect(!Posix.exists(m.path("db-wal")), "seed \(seed): the rename survived beside the old -wal") }
                    lengths.insert(length)
                }
            }
            #expect(lengths.count > 1 && lengths.contains { $0 > 0 && $0 < 9 }, "the seeds cut the entries at different places: \(lengths)")
        }

        @Test func handlesOpenedBeforeACrashFailWithEIO() throws {
            try withMount { m in
                durableFile(m, "h", [9, 9])
                let fd = open(m.path("h"), O_RDWR)
                #expect(fd >= 0)
                defer { close(fd) }
                try m.fs.crash(.keepNone)
                #expect(try m.fs.status().openHandles >= 1)
                var byte: UInt8 = 0
                #expect(pwrite(fd, &byte, 1, 0) == -1 && errno == EIO)
                #expect(Glibc.fsync(fd) == -1 && errno == EIO)
                // A fresh open works.
                #expect(Posix.contents(m.path("h")) == [9, 9])
            }
        }

        @Test func syncAllMakesEverythingDurable() throws {
            try withMount { m in
                #expect(mkdir(m.path("dir"), 0o755) == 0)
                #expect(Posix.write(m.path("dir/f"), [1, 2]) == .ok(2))
                #expect(try m.fs.syncAll() >= 3)
                try m.fs.crash(.keepNone)
                #expect(Posix.contents(m.path("dir/f")) == [1, 2])
            }
        }

        @Test func backingCopyFileRangeAndTruncateAreUndoneOrKeptByACrash() throws {
            for keep in [0, 1] {
                try withMount { m in
                    let payload = [UInt8]((0..<6000).map { UInt8($0 % 253) })
                    durableFile(m, "src", payload)
                    durableFile(m, "dst", [UInt8](repeating: 0x6f, count: 100))
                    let src = open(m.path("src"), O_RDONLY), dst = open(m.path("dst"), O_RDWR)
                    #expect(src >= 0 && dst >= 0)
                    var inOff: Int64 = 0, outOff: Int64 = 50
                    var copied = 0
                    while copied < 6000 {
                        let n = Int(lb_copy_file_range(src, &inOff, dst, &outOff, 6000 - copied, 0))
                        if n <= 0 { break }
                        copied += n
                    }
                    #expect(copied == 6000)
                    close(src); close(dst)
                    #expect(Glibc.truncate(m.path("src"), 10) == 0)
                    // The copy ran on the backing file; the crash model still treats it as unsynced.
                    #expect(try m.fs.status().files.map(\.path).sorted() == ["/dst", "/src"])
                    try m.fs.crash(.keepPrefix(keep))
                    let old = [UInt8](repeating: 0x6f, count: 100)
                    #expect(Posix.contents(m.path("dst")) == (keep == 0 ? old : Array(old[0..<50]) + payload))
                    #expect(Posix.contents(m.path("src")) == payload)
                }
            }
        }
    }
}
