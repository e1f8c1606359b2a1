import ChildProcesses
import Foundation
import Testing
@testable import FaultFS
#if canImport(Glibc)
import Glibc
#endif

extension MountTests {
    /// The kernel caches attributes and entries (timeouts above zero on the low-level API); every change FaultFS
    /// makes behind its back must reach it as a notification, so no process sees a stale size or name.
    @Suite struct KernelCacheTests {
        /// Another process holds `f` open and stats it (and the names `g`, `r1`, `r2`) in a loop while the crash
        /// runs; every observation it starts after `crash` returned must show the state the crash left.
        @Test func crashLeavesNoStaleSizeOrNameInAnotherProcess() throws {
            let python = try #require(ChildProcesses.which("python3"))
            try withMount { m in
                #expect(Posix.write(m.path("f"), Array("AAAA".utf8), fsync: true) == .ok(4))
                #expect(Posix.write(m.path("r1"), [1], fsync: true) == .ok(1))
                #expect(Posix.fsyncDir(m.mnt.path) == .ok(0))
                // Not durable: f grows to 8192, g appears, r1 becomes r2.
                #expect(Posix.write(m.path("f"), [UInt8](repeating: 7, count: 8188), at: 4) == .ok(8188))
                #expect(Posix.write(m.path("g"), [2]) == .ok(1))
                #expect(rename(m.path("r1"), m.path("r2")) == 0)

                let phase = m.root.appendingPathComponent("phase").path, ready = m.root.appendingPathComponent("ready").path
                let out = m.root.appendingPathComponent("observer.json").path
                try "0".write(toFile: phase, atomically: true, encoding: .utf8)
                let observer = try SpawnedChild.start(ChildSpec(
                    name: "observer", executable: python, arguments: ["-c", Self.observer, m.path("f"), m.path("g"), m.path("r1"),
                                                                      m.path("r2"), phase, ready],
                    output: .files(stdout: out, stderr: out + ".err")))
                var waited = 0
                while !FileManager.default.fileExists(atPath: ready) && waited < 600 { usleep(50_000); waited += 1 }
                #expect(FileManager.default.fileExists(atPath: ready), "the observer never got going")

                try m.fs.crash(.keepNone)
                try "1".write(toFile: phase, atomically: true, encoding: .utf8)
                let end = observer.wait(timeout: 120)
                #expect(end.succeeded, "observer: \(String(decoding: FileManager.default.contents(atPath: out + ".err") ?? Data(), as: UTF8.self))")
                let report = try JSONDecoder().decode(Observations.self, from: Data(contentsOf: URL(fileURLWithPath: out)))
                // Before the crash it saw the unsynced state (so the kernel had it cached: the look that said ready)...
                #expect(report.before == Observation(size: 8192, fsize: 8192, g: true, r1: false, r2: true))
                // ...and every look after the crash returned saw the durable state.
                #expect(report.count >= 200)
                #expect(report.after == [Observation(size: 4, fsize: 4, g: false, r1: true, r2: false)])
            }
        }

        /// Changes a request itself makes behind the kernel's back (fsync-fail-clean drops the unsynced data, on a
        /// direct-I/O file and on a page-cached -shm) are visible as soon as the call returns, and notifying from
        /// the request does not deadlock.
        @Test(arguments: ["c", "c-shm"]) func changesMadeByARequestAreVisibleWhenItReturns(_ name: String) throws {
            try withMount { m in
                #expect(Posix.write(m.path(name), Array("AAAA".utf8), fsync: true) == .ok(4))
                try m.fs.arm(FaultRule(ops: [.fsync], path: "/" + name, trigger: .nth(1), action: .fsyncFailClean))
                let fd = open(m.path(name), O_RDWR)
                #expect(fd >= 0)
                defer { close(fd) }
                let big = [UInt8](repeating: 9, count: 8192)
                #expect(big.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == 8192)
                var st = stat()
                #expect(fstat(fd, &st) == 0 && st.st_size == 8192)
                #expect(fsync(fd) == -1 && errno == EIO)
                #expect(fstat(fd, &st) == 0 && st.st_size == 4)
                var path = stat()
                #expect(stat(m.path(name), &path) == 0 && path.st_size == 4)
                var buf = [UInt8](repeating: 0, count: 16)
                #expect(buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) } == 4)
                #expect(Array(buf.prefix(4)) == Array("AAAA".utf8))
            }
        }

        /// An open file that has lost its name is still served by node id: fstat and fchmod work, as natively.
        @Test func fstatAndFchmodOfAnOpenUnlinkedFile() throws {
            try withMount { m in
                let fd = open(m.path("u"), O_RDWR | O_CREAT, 0o644)
                #expect(fd >= 0)
                defer { close(fd) }
                #expect(write(fd, "hello", 5) == 5)
                #expect(unlink(m.path("u")) == 0)
                var st = stat()
                #expect(fstat(fd, &st) == 0)
                #expect(st.st_size == 5 && st.st_nlink == 0)
                #expect(fchmod(fd, 0o600) == 0)
                #expect(fstat(fd, &st) == 0 && st.st_mode & 0o777 == 0o600)
            }
        }

        /// The inode table stays bounded: the nodes of removed files go once the kernel forgets them.
        @Test func inodeTableForgetsWhatTheKernelForgets() throws {
            try withMount { m in
                let count = 500
                for i in 0..<count { #expect(Posix.write(m.path("n\(i)"), [1]) == .ok(1)) }
                let during = try #require(try m.fs.status().nodes)
                #expect(during >= count)
                for i in 0..<count { #expect(unlink(m.path("n\(i)")) == 0) }
                var after = during
                for _ in 0..<200 where after > 10 {
                    usleep(50_000)
                    after = try #require(try m.fs.status().nodes)
                }
                #expect(after <= 10, "nodes: \(during) with the files, \(after) after removing them")
                #expect(try m.fs.status().peakNodes ?? 0 >= count)
            }
        }

        struct Observation: Codable, Equatable, Hashable {
            let size: Int
            let fsize: Int
            let g: Bool
            let r1: Bool
            let r2: Bool
        }

        struct Observations: Codable {
            let before: Observation?
            let after: [Observation]
            let count: Int
        }

        /// The observer: reads the phase first, then looks, so a look after phase 1 began after the crash returned.
        static let observer = """
        import json, os, sys, time
        f, g, r1, r2, phase, ready = sys.argv[1:7]
        fd = os.open(f, os.O_RDONLY)
        def size(p):
            try: return os.stat(p).st_size
            except FileNotFoundError: return -1
        before, n, after, count = None, 0, set(), 0
        deadline = time.time() + 90
        while time.time() < deadline:
            with open(phase) as ph: p = ph.read().strip()
            o = (size(f), os.fstat(fd).st_size, os.path.exists(g), os.path.exists(r1), os.path.exists(r2))
            if p != "1":
                n += 1
                if n == 50:
                    before = o
                    open(ready, "w").close()
            else:
                after.add(o); count += 1
                if count >= 200: break
        obs = lambda o: dict(zip(["size", "fsize", "g", "r1", "r2"], o))
        print(json.dumps({"before": obs(before) if before else None, "after": [obs(o) for o in sorted(after)], "count": count}))
        """
    }
}
