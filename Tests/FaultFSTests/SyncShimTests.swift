import ChildProcesses
import Foundation
import Testing
@testable import FaultFS
#if canImport(Glibc)
import Glibc
#endif

extension MountTests {
    /// sync(2), `sync -f` (syncfs) and Python's os.sync() reach FaultFS through the preloaded shim: what a
    /// program wrote before them survives a crash; without the shim the same program loses it.
    @Suite struct SyncShimTests {
        static var library: String? {
            SyncShim.locateLibrary(besides: (try? FaultFSMount.locateExecutable().path) ?? CommandLine.arguments[0])
        }

        func run(_ script: String, on m: MountFixture, shim: Bool) throws -> Termination {
            let library = try #require(Self.library, "libLifeboatSyncShim.so is built by `swift build`")
            let spec = ChildSpec(name: "sh", executable: "/bin/sh", arguments: ["-c", script],
                                 syncShim: shim ? SyncShim(library: library, socket: m.fs.controlSocket.path, mountpoint: m.mnt.path) : nil)
            return try SpawnedChild.start(spec).wait(timeout: 60)
        }

        @Test(arguments: ["sync", "sync -f .", "python3 -c 'import os; os.sync()'"])
        func aSyncingProgramKeepsItsFilesAcrossACrash(_ syncCommand: String) throws {
            let m = try MountFixture()
            defer { m.tearDown() }
            #expect(try run("cd '\(m.mnt.path)' && mkdir d && printf kept > d/f && \(syncCommand)", on: m, shim: true).succeeded)
            _ = try m.fs.crash(.keepNone)
            #expect(Posix.contents(m.path("d/f")) == Array("kept".utf8))
        }

        @Test func withoutTheShimTheSameProgramLosesItsFiles() throws {
            let m = try MountFixture()
            defer { m.tearDown() }
            #expect(try run("cd '\(m.mnt.path)' && printf lost > f && sync", on: m, shim: false).succeeded)
            _ = try m.fs.crash(.keepNone)
            #expect(!Posix.exists(m.path("f")))
        }

        /// syncfs of another file system does not make FaultFS's pending state durable.
        @Test func syncfsElsewhereLeavesFaultFSAlone() throws {
            let m = try MountFixture()
            defer { m.tearDown() }
            #expect(try run("printf pending > '\(m.path("f"))' && sync -f /tmp", on: m, shim: true).succeeded)
            _ = try m.fs.crash(.keepNone)
            #expect(!Posix.exists(m.path("f")))
        }
    }
}
