import ChildProcesses
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The one spawn mechanism: what the four former copies relied on (signal mask reset, output files, process
/// groups, rusage, timeouts) and what the runner adds (stop on interrupt, the sync shim's environment).
@Suite struct SpawnedChildTests {
    func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lifeboat-spawn-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func exitCodesSignalsAndMergedOutput() throws {
        let outcome = try ChildProcesses.run(ChildSpec(name: "sh", executable: "/bin/sh", arguments: ["-c", "echo out; echo err >&2; exit 3"]))
        #expect(outcome.termination.exitCode == 3 && outcome.termination.signal == nil && !outcome.termination.succeeded)
        #expect(outcome.output.contains("out") && outcome.output.contains("err"))
        let killed = try ChildProcesses.run(ChildSpec(name: "sh", executable: "/bin/sh", arguments: ["-c", "kill -9 $$"]))
        #expect(killed.termination.signal == SIGKILL && killed.termination.exitCode == 128 + SIGKILL && killed.termination.status == -SIGKILL)
    }

    @Test func separateOutputFilesAndEnvironment() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out").path, err = dir.appendingPathComponent("err").path
        let child = try SpawnedChild.start(ChildSpec(name: "sh", executable: "/bin/sh", arguments: ["-c", "echo \"$GREETING\"; echo oops >&2"],
                                                     environment: ["GREETING": "hello"], output: .files(stdout: out, stderr: err)))
        #expect(child.wait().succeeded)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "hello\n")
        #expect(try String(contentsOfFile: err, encoding: .utf8) == "oops\n")
    }

    /// A descriptor the harness has open without O_CLOEXEC (a file another thread is writing) does not go with the
    /// child: a freshly written script stays executable (no ETXTBSY) and the child holds nothing of the harness.
    @Test func theChildInheritsNoDescriptorOfTheHarness() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("tool.sh").path
        let fd = open(script, O_WRONLY | O_CREAT | O_TRUNC, 0o755)
        #expect(fd > 2)
        let probe = "test -e /proc/$$/fd/\(fd) && echo inherited || echo closed"
        let outcome = try ChildProcesses.run(ChildSpec(name: "sh", executable: "/bin/sh", arguments: ["-c", probe]))
        #expect(outcome.output.trimmingCharacters(in: .whitespacesAndNewlines) == "closed", "\(outcome.output)")
        // A long child started while the script is still open for writing does not keep it busy once it is closed.
        let long = try SpawnedChild.start(ChildSpec(name: "sleep", executable: "/bin/sleep", arguments: ["5"]))
        defer { _ = long.signal(SIGKILL); _ = long.wait() }
        let text = "#!/bin/sh\necho ran\n"
        #expect(text.withCString { write(fd, $0, strlen($0)) } == text.utf8.count)
        close(fd)
        let ran = try ChildProcesses.run(ChildSpec(name: "tool", executable: script, arguments: []))
        #expect(ran.termination.succeeded && ran.output.contains("ran"), "\(ran.output)")
    }

    @Test func aTimeoutKillsTheWholeProcessGroup() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pidFile = dir.appendingPathComponent("grandchild").path
        let child = try SpawnedChild.start(ChildSpec(name: "sh", executable: "/bin/sh",
                                                     arguments: ["-c", "sleep 300 & echo $! > '\(pidFile)'; wait"], ownProcessGroup: true))
        for _ in 0..<500 where (try? String(contentsOfFile: pidFile, encoding: .utf8))?.hasSuffix("\n") != true { usleep(10_000) }
        let grandchild = try #require(Int32((try String(contentsOfFile: pidFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        let termination = child.wait(timeout: 0.2)
        #expect(termination.timedOut && termination.signal == SIGKILL)
        // The grandchild got SIGKILL too (it is reaped by init; give it a moment to go).
        for _ in 0..<200 where kill(grandchild, 0) == 0 && !isZombie(grandchild) { usleep(10_000) }
        #expect(kill(grandchild, 0) != 0 || isZombie(grandchild))
        #expect(!child.signal(SIGTERM), "a reaped child is never signalled again")
    }

    func isZombie(_ pid: Int32) -> Bool {
        ((try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "").split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    @Test func aStopConditionEndsTheWaitPromptly() throws {
        let child = try SpawnedChild.start(ChildSpec(name: "sleep", executable: "/bin/sleep", arguments: ["300"]))
        let start = Date()
        let termination = child.wait(timeout: 600, stop: { Date().timeIntervalSince(start) > 0.1 })
        #expect(termination.stopped && !termination.timedOut)
        #expect(Date().timeIntervalSince(start) < 5)
    }

    /// A dispatch worker blocks most signals and a child inherits the mask: the spawn clears it.
    @Test func theChildStartsWithAnEmptySignalMask() throws {
        var blocked = sigset_t(), old = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        let outcome = try ChildProcesses.run(ChildSpec(name: "sh", executable: "/bin/sh", arguments: ["-c", "grep SigBlk /proc/self/status"]))
        #expect(outcome.output.contains("0000000000000000"), "\(outcome.output)")
    }

    @Test func rusageIsTheChildsOwn() throws {
        let child = try SpawnedChild.start(ChildSpec(name: "sh", executable: "/bin/sh",
                                                     arguments: ["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"]))
        let termination = child.wait()
        #expect(termination.succeeded && termination.userSeconds + termination.systemSeconds > 0 && termination.peakRSSBytes > 0)
        #expect(termination.wallSeconds > 0)
    }

    @Test func missingProgramIsASpawnError() {
        #expect(throws: SpawnError.self) { try SpawnedChild.start(ChildSpec(name: "x", executable: "/nonexistent/program")) }
    }

    @Test func theSyncShimIsAppendedToLDPreloadWithItsVariables() {
        let shim = SyncShim(library: "/lib/libLifeboatSyncShim.so", socket: "/tmp/s.ctl", mountpoint: "/mnt/m")
        let env = shim.environment(over: ["LD_PRELOAD": "/lib/other.so", "PATH": "/bin"])
        #expect(env["LD_PRELOAD"] == "/lib/other.so:/lib/libLifeboatSyncShim.so")
        #expect(env[SyncShim.socketVariable] == "/tmp/s.ctl" && env[SyncShim.mountVariable] == "/mnt/m" && env["PATH"] == "/bin")
        #expect(shim.environment(over: env)["LD_PRELOAD"] == env["LD_PRELOAD"], "never preloaded twice")
    }
}
