import ChildProcesses
import Foundation
import Testing
@testable import FaultFS
#if canImport(Glibc)
import Glibc
#endif

extension MountTests {
    /// Mount lifecycle: unmount with busy or killed clients, stale mounts, the control socket, the op log.
    @Suite struct LifecycleTests {
        /// Starts `sh` holding two descriptors on the mount; returns its pid once both are open.
        func startHolder(_ m: MountFixture) throws -> SpawnedChild {
            let marker = m.root.appendingPathComponent("holder-ready").path
            let script = "exec 3>'\(m.path("held"))'; exec 4<'\(m.path("held"))'; touch '\(marker)'; exec sleep 600"
            let holder = try SpawnedChild.start(ChildSpec(name: "holder", executable: "/bin/sh", arguments: ["-c", script]))
            for _ in 0..<500 where !Posix.exists(marker) { usleep(10_000) }
            #expect(Posix.exists(marker), "holder did not start")
            return holder
        }

        @Test func unmountAfterAClientWasKilledLeavesNoMount() throws {
            let m = try MountFixture()
            defer { m.tearDown() }
            let holder = try startHolder(m)
            #expect(holder.signal(SIGKILL))
            #expect(holder.wait().signal == SIGKILL)
            m.fs.unmount()
            #expect(!StaleMounts.isMounted(m.mnt.path))
            #expect(StaleMounts.fuseMounts(under: m.root.path).isEmpty)
            #expect(m.fs.daemonExited)
        }

        @Test func unmountWhileAClientStillHoldsFilesLeavesNoMount() throws {
            let m = try MountFixture()
            defer { m.tearDown() }
            let holder = try startHolder(m)
            defer {
                holder.signal(SIGKILL)
                holder.wait()
            }
            m.fs.unmount()
            #expect(!StaleMounts.isMounted(m.mnt.path))
            #expect(m.fs.daemonExited)
        }

        @Test func staleMountOfAKilledDaemonIsCleanedAndTheMountpointReusable() throws {
            let m = try MountFixture()
            defer { m.tearDown() }
            #expect(kill(m.fs.pid, SIGKILL) == 0)
            for _ in 0..<200 where !m.fs.daemonExited { usleep(10_000) }
            var st = stat()
            #expect(stat(m.mnt.path, &st) == -1 && errno == ENOTCONN)
            #expect(StaleMounts.isMounted(m.mnt.path))
            let cleared = FaultFSMount.cleanStaleMounts(under: m.root)
            #expect(cleared.count == 1)
            #expect(!StaleMounts.isMounted(m.mnt.path))
            #expect(stat(m.mnt.path, &st) == 0)
            // A new daemon mounts on the same mountpoint and works.
            let again = try FaultFSMount.start(backing: m.backing, mountpoint: m.mnt, seed: 2)
            defer { again.unmount() }
            #expect(Posix.write(m.path("new"), [1]) == .ok(1))
            #expect(Posix.contents(m.path("new")) == [1])
            again.unmount()
            #expect(!StaleMounts.isMounted(m.mnt.path))
        }

        @Test func badControlMessagesGetErrorRepliesAndTheDaemonKeepsServing() throws {
            try withMount { m in
                let bad = [
                    "this is not json",
                    "{",
                    "[]",
                    #"{"verb":"teleport"}"#,
                    #"{"noverb":true}"#,
                    #"{"verb":"arm"}"#,
                    #"{"verb":"arm","rule":{"ops":["write"],"action":{"kind":"errno","errno":"EBOGUS"}}}"#,
                    #"{"verb":"arm","rule":{"ops":["write"],"trigger":{"kind":"nth","n":0},"action":{"kind":"errno","errno":"EIO"}}}"#,
                    #"{"verb":"arm","rule":{"ops":["warp"],"action":{"kind":"errno","errno":"EIO"}}}"#,
                    #"{"verb":"disarm","id":"r999"}"#,
                    #"{"verb":"crash","mode":"keep-prefix"}"#,
                    #"{"verb":"crash","mode":"sideways"}"#,
                    #"{"verb":42}"#,
                ]
                for line in bad {
                    let reply = try m.fs.client.send(line: Data(line.utf8))
                    let decoded = try JSONDecoder().decode(ControlReply.self, from: reply)
                    #expect(!decoded.ok, "accepted: \(line)")
                    #expect(decoded.error?.isEmpty == false)
                }
                try m.fs.ping()
                #expect(try m.fs.rules().isEmpty)
                #expect(throws: FaultFSError.self) { try m.fs.disarm("nope") }
                // Several requests on one connection, one reply line each.
                let fd = try UnixSocket.connect(m.fs.controlSocket.path)
                defer { close(fd) }
                #expect(UnixSocket.writeAll(fd, Data("{\"verb\":\"ping\"}\ngarbage\n{\"verb\":\"ping\"}\n".utf8)))
                var reader = LineReader(fd: fd)
                var oks: [Bool] = []
                for _ in 0..<3 {
                    if case .line(let l) = reader.next() { oks.append((try? JSONDecoder().decode(ControlReply.self, from: l))?.ok ?? false) }
                }
                #expect(oks == [true, false, true])
            }
        }

        @Test func opLogRecordsWritesBarriersMarksAndCrashes() throws {
            try withMount(logData: true) { m in
                let payload = Array("hello, log".utf8)
                #expect(Posix.write(m.path("logged"), payload, at: 8, fsync: true) == .ok(payload.count))
                let mark = try m.fs.logMark("after-first-fsync")
                #expect(Posix.write(m.path("logged"), [1, 2, 3]) == .ok(3))
                try m.fs.crash(.keepNone)
                m.fs.unmount()
                let records = try OpLog.read(m.log)
                let writes = records.filter { $0.op == .write }
                #expect(writes.count == 2)
                let first = try #require(writes.first)
                #expect(first.path == "/logged" && first.offset == 8 && first.length == Int64(payload.count) && first.durable == false)
                #expect(first.hash == hex64(payload.withUnsafeBytes { fnv1a64($0) }))
                #expect(try OpLog.payload(of: first, log: m.log) == Data(payload))
                let fsync = try #require(records.first { $0.op == .fsync })
                #expect(fsync.synced == [first.seq] && fsync.result == 0)
                #expect(records.contains { $0.op == .mark && $0.seq == mark && $0.detail == "after-first-fsync" })
                let crash = try #require(records.first { $0.op == .crash })
                #expect(crash.dropped?.contains(writes[1].seq) == true)
                #expect(records.contains { $0.op == .create && $0.path == "/logged" })
                // Seqs are unique and increasing in file order.
                let seqs = records.map(\.seq)
                #expect(seqs == seqs.sorted() || Set(seqs).count == seqs.count)
            }
        }

        /// A daemon started with --exit-with-parent (as FaultFSMount does) unmounts when its parent is SIGKILLed.
        @Test func daemonUnmountsWhenItsParentIsKilled() throws {
            let tmpl = strdup("/tmp/ffs-XXXXXX")!
            defer { free(tmpl) }
            let root = String(cString: mkdtemp(tmpl)!)
            defer { try? FileManager.default.removeItem(atPath: root) }
            for d in ["b", "m"] { #expect(mkdir(root + "/" + d, 0o755) == 0) }
            let exe = try FaultFSMount.locateExecutable().path
            let shell = try SpawnedChild.start(ChildSpec(name: "parent", executable: "/bin/sh",
                                                         arguments: ["-c", "'\(exe)' mount '\(root)/b' '\(root)/m' --exit-with-parent & wait"]))
            for _ in 0..<500 where !StaleMounts.isMounted(root + "/m") { usleep(10_000) }
            #expect(StaleMounts.isMounted(root + "/m"))
            #expect(Posix.write(root + "/m/f", [1]) == .ok(1))
            #expect(shell.signal(SIGKILL))
            shell.wait()
            for _ in 0..<500 where StaleMounts.isMounted(root + "/m") { usleep(10_000) }
            #expect(!StaleMounts.isMounted(root + "/m"))
            // The clean shutdown made the pending create and write durable.
            #expect(Posix.contents(root + "/b/f") == [1])
            StaleMounts.clean(under: root)
        }
    }
}
