import Foundation
import Testing
@testable import FaultFS

extension MountTests {
    /// Crashes on a device profile, mounted: reorder keeps whole aligned units of a write; without powersafe
    /// overwrite a torn partial-sector write loses the rest of its sector; `coverage` counts the crash.
    @Suite struct DeviceCrashTests {
        func durableFile(_ m: MountFixture, _ name: String, _ base: [UInt8]) {
            #expect(Posix.write(m.path(name), base, fsync: true) == .ok(base.count))
            #expect(Posix.fsyncDir(m.mnt.path) == .ok(0))
        }

        @Test func reorderOnA4KiBDeviceKeepsWholeUnitsOfAWrite() throws {
            try withMount(seed: 11) { m in
                try m.fs.setDevice(DeviceProfile(sector: 4096, atomicWrite: 4096, powersafeOverwrite: true))
                durableFile(m, "r", [UInt8](repeating: 0, count: 8 * 4096))
                #expect(Posix.write(m.path("r"), [UInt8](repeating: 7, count: 8 * 4096 - 100), at: 100) == .ok(8 * 4096 - 100))
                _ = try m.fs.crash(.reorder)
                let after = try #require(Posix.contents(m.path("r")))
                // Every aligned 4 KiB unit is all old or all new (the first unit's new part starts at 100).
                for unit in 0..<8 {
                    let bytes = Set(after[(unit == 0 ? 100 : unit * 4096)..<((unit + 1) * 4096)])
                    #expect(bytes.count == 1, "unit \(unit) mixes old and new bytes")
                }
                // With this seed the write comes back in part: some units new, some old.
                #expect(Set(after[100...]) == [0, 7])
                #expect(try m.fs.coverage().coverage.crashes == 1)
            }
        }

        @Test func tornPartialSectorWriteWithoutPowersafeOverwriteLosesTheSector() throws {
            try withMount(seed: 3) { m in
                try m.fs.setDevice(DeviceProfile(sector: 512, atomicWrite: 512, powersafeOverwrite: false))
                durableFile(m, "w", [UInt8](repeating: 0x61, count: 1000))
                // 24 bytes appended inside the sector [512, 1024) that already holds durable bytes 512..<1000.
                #expect(Posix.write(m.path("w"), [UInt8](repeating: 0x62, count: 24), at: 1000) == .ok(24))
                let report = try m.fs.crash(.torn(fill: .zeros))
                #expect(report.tornCut == 1000)
                let after = try #require(Posix.contents(m.path("w")))
                #expect(after[0..<512].allSatisfy { $0 == 0x61 })
                #expect(after[512...].allSatisfy { $0 == 0 }, "the durable bytes sharing the torn write's sector survived")
            }
        }
    }
}
