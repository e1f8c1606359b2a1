import Foundation
import Testing
@testable import FaultFS
#if canImport(Glibc)
import Glibc
#endif

/// `--fsync-failure ext4|xfs|btrfs` (`FsyncFailure`): what a file holds after an fsync a rule failed with EIO, after a
/// later fsync that succeeds, and after a crash, on a real mount. The file starts as three durable pages of 1s; one
/// descriptor overwrites page 0 with 2s and appends page 3 of 3s, and its fsync fails.
@Suite struct FsyncFailureOptionTests {
    @Test func mountFlagAndControlVerbParse() throws {
        #expect(try FaultFSCommandLine.parseMount(["/b", "/m"]).get().fsyncFailure == nil)
        for semantics in FsyncFailure.allCases {
            #expect(try FaultFSCommandLine.parseMount(["/b", "/m", "--fsync-failure", semantics.rawValue]).get().fsyncFailure == semantics)
            guard case .success(let line) = FaultFSCommandLine.parseControl(["fsync-failure", semantics.rawValue]) else {
                Issue.record("ctl fsync-failure \(semantics.rawValue) did not parse")
                continue
            }
            #expect(try JSONDecoder().decode(ControlRequest.self, from: line).fsyncFailure == .semantics(semantics))
        }
        for bad in [["/b", "/m", "--fsync-failure"], ["/b", "/m", "--fsync-failure", "zfs"]] {
            guard case .failure = FaultFSCommandLine.parseMount(bad) else {
                Issue.record("\(bad) was accepted")
                continue
            }
        }
        guard case .failure = FaultFSCommandLine.parseControl(["fsync-failure", "zfs"]) else {
            Issue.record("ctl fsync-failure zfs was accepted")
            return
        }
    }
}

extension MountTests {
    @Suite struct FsyncFailureTests {
        static let page = 4096

        /// Bytes from (value, count) runs.
        static func bytes(_ runs: [(UInt8, Int)]) -> [UInt8] { runs.flatMap { Array(repeating: $0.0, count: $0.1) } }

        /// The three moments of one run.
        struct Seen: Equatable {
            var afterEIO: [UInt8]?
            var afterLaterFsync: [UInt8]?
            var afterCrash: [UInt8]?
        }

        /// Three durable pages of 1s; through one descriptor page 0 becomes 2s and page 3 of 3s is appended; its
        /// fsync fails with EIO (rule). Then `later` runs on the same descriptor and its fsync must succeed; then a
        /// crash that keeps nothing pending. `semantics` nil: no setting (the data stays pending). The setting is
        /// passed as the mount flag when `flag`, else through the control verb.
        static func run(_ semantics: FsyncFailure?, flag: Bool, later: (Int32) -> Void) throws -> Seen {
            var seen = Seen()
            let arguments = flag ? semantics.map { ["--fsync-failure", $0.rawValue] } ?? [] : []
            try withMount(arguments: arguments) { m in
                if !flag { try m.fs.setFsyncFailure(semantics) }
                let f = m.path("f")
                #expect(Posix.write(f, bytes([(1, 3 * page)]), fsync: true) == .ok(3 * page))
                #expect(Posix.fsyncDir(m.mnt.path) == .ok(0))
                try m.fs.arm(FaultRule(ops: [.fsync], path: "/f", trigger: .nth(1), action: .errno(.EIO)))
                let fd = open(f, O_RDWR)
                #expect(fd >= 0)
                defer { close(fd) }
                let two = bytes([(2, page)]), three = bytes([(3, page)])
                #expect(two.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == page)
                #expect(three.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(3 * page)) } == page)
                let failed = fsync(fd)
                #expect(failed == -1 && errno == EIO, "the rule's fsync must fail with EIO")
                seen.afterEIO = Posix.contents(f)
                later(fd)
                #expect(fsync(fd) == 0, "a later fsync succeeds")
                seen.afterLaterFsync = Posix.contents(f)
                try m.fs.crash(.keepNone)
                seen.afterCrash = Posix.contents(f)
            }
            return seen
        }

        /// A later write of ten 9s at the start of page 1, a page the failed fsync did not touch.
        static func writeNines(_ fd: Int32) {
            let nines = bytes([(9, 10)])
            _ = nines.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(page)) }
        }

        @Test(arguments: [FsyncFailure.ext4, .xfs, .btrfs])
        func contentsAfterEIOAfterALaterFsyncAndAfterACrash(_ semantics: FsyncFailure) throws {
            let p = Self.page
            let seen = try Self.run(semantics, flag: semantics == .ext4, later: Self.writeNines)
            let new = Self.bytes([(2, p), (1, 2 * p), (3, p)])
            let newWithNines = Self.bytes([(2, p), (9, 10), (1, 2 * p - 10), (3, p)])
            let oldWithNines = Self.bytes([(1, p), (9, 10), (1, 2 * p - 10)])
            switch semantics {
            case .ext4:
                // Pages kept and marked clean; the journal committed the new size, the data never reached the disk.
                #expect(seen == Seen(afterEIO: new, afterLaterFsync: newWithNines,
                                     afterCrash: oldWithNines + Self.bytes([(0, p)])))
            case .xfs:
                // As ext4 in memory; the on-disk size moves only when a write completes, so the append is gone.
                #expect(seen == Seen(afterEIO: new, afterLaterFsync: newWithNines, afterCrash: oldWithNines))
            case .btrfs:
                // The file reverts to its durable state at once; only the later write persists.
                #expect(seen == Seen(afterEIO: Self.bytes([(1, 3 * p)]), afterLaterFsync: oldWithNines, afterCrash: oldWithNines))
            }
        }

        @Test func withoutASettingTheFailedDataStaysPendingAndALaterFsyncPersistsIt() throws {
            let p = Self.page
            let seen = try Self.run(nil, flag: false, later: Self.writeNines)
            let newWithNines = Self.bytes([(2, p), (9, 10), (1, 2 * p - 10), (3, p)])
            #expect(seen == Seen(afterEIO: Self.bytes([(2, p), (1, 2 * p), (3, p)]), afterLaterFsync: newWithNines, afterCrash: newWithNines))
        }

        /// Rewriting one byte of page 0 after the EIO dirties the whole page again under ext4 and xfs (the kernel writes
        /// back pages), so the later fsync persists all of page 0; under btrfs page 0 was reverted, so only that byte
        /// persists. Page 3 (the append) is not rewritten: ext4 keeps its size with zeros, xfs and btrfs lose it.
        @Test(arguments: [FsyncFailure.ext4, .xfs, .btrfs])
        func aWriteIntoAFailedPageDirtiesTheWholePageAgain(_ semantics: FsyncFailure) throws {
            let p = Self.page
            let seen = try Self.run(semantics, flag: false) { fd in
                var two: UInt8 = 2
                _ = pwrite(fd, &two, 1, 100)
            }
            switch semantics {
            case .ext4: #expect(seen.afterCrash == Self.bytes([(2, p), (1, 2 * p), (0, p)]))
            case .xfs: #expect(seen.afterCrash == Self.bytes([(2, p), (1, 2 * p)]))
            case .btrfs: #expect(seen.afterCrash == Self.bytes([(1, 100), (2, 1), (1, 3 * p - 101)]))
            }
        }

        /// A program that retries fsync after the EIO and trusts the retry: the retry succeeds and writes nothing
        /// under ext4 and xfs (the pages are clean), and the crash takes the data.
        @Test(arguments: [FsyncFailure.ext4, .xfs, .btrfs])
        func aRetriedFsyncPersistsNothing(_ semantics: FsyncFailure) throws {
            let p = Self.page
            let seen = try Self.run(semantics, flag: false) { _ in }
            let old = Self.bytes([(1, 3 * p)])
            #expect(seen.afterCrash == (semantics == .ext4 ? old + Self.bytes([(0, p)]) : old))
            #expect(seen.afterLaterFsync == (semantics == .btrfs ? old : Self.bytes([(2, p), (1, 2 * p), (3, p)])))
        }
    }
}
