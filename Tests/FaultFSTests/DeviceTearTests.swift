import Foundation
import SeededRandomness
import PropertyBased
import Testing
@testable import FaultFS

/// The tear functions over pending writes: tears fall on sector boundaries, never inside an atomic unit; without
/// powersafe overwrite the sectors in flight are lost whole; reorder keeps whole aligned units.
@Suite struct DeviceTearTests {
    static let profiles = [DeviceProfile(sector: 512, atomicWrite: 0, powersafeOverwrite: true),
                           DeviceProfile(sector: 512, atomicWrite: 512, powersafeOverwrite: false),
                           DeviceProfile(sector: 4096, atomicWrite: 4096, powersafeOverwrite: true),
                           DeviceProfile(sector: 4096, atomicWrite: 16384, powersafeOverwrite: true)]

    @Test func tornCutsFallOnUnitBoundariesStrictlyInsideTheWrite() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...200_000), Gen.int(in: 1...40_000), Gen.int(in: 0...3)) { off, len, p in
            let device = Self.profiles[p]
            var rng = SeededRandom(seed: UInt64(off &* 31 &+ len))
            let cut = DeviceTear.tornCut(offset: Int64(off), length: Int64(len), device: device) { rng.next() }
            #expect(cut >= Int64(off) && cut < Int64(off + len))
            #expect(cut == Int64(off) || cut % device.unit == 0)
            // A write inside one unit is never cut inside: all of it or (torn) none of it.
            if Int64(off) / device.unit == Int64(off + len - 1) / device.unit { #expect(cut == Int64(off)) }
        }
    }

    @Test func withoutPowersafeOverwriteTheSectorInFlightIsLostWhole() {
        let psow = DeviceProfile(sector: 512, atomicWrite: 512, powersafeOverwrite: true)
        let noPSOW = DeviceProfile(sector: 512, atomicWrite: 512, powersafeOverwrite: false)
        // A 24-byte WAL frame header at 4152 that never landed: with PSOW nothing else changes; without, the whole
        // sector [4096, 4608), which holds the end of the previous frame, is lost.
        #expect(DeviceTear.damage(offset: 4152, length: 24, cut: 4152, device: psow) == 4152..<4176)
        #expect(DeviceTear.damage(offset: 4152, length: 24, cut: 4152, device: noPSOW) == 4096..<4608)
        // A write cut at 4608 loses the rest of its last sector too.
        #expect(DeviceTear.damage(offset: 4176, length: 4096, cut: 4608, device: noPSOW) == 4608..<8704)
    }

    @Test func reorderKeepsWholeAlignedUnits() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...50_000), Gen.int(in: 1...30_000), Gen.int(in: 0...3)) { off, len, p in
            let device = Self.profiles[p]
            var rng = SeededRandom(seed: UInt64(off &+ len))
            let survivors = DeviceTear.reorderSurvivors([PendingWriteExtent(seq: 7, offset: Int64(off), length: Int64(len))], device: device) { rng.next() }
            for range in survivors[7] ?? [] {
                #expect(range.lowerBound >= Int64(off) && range.upperBound <= Int64(off + len))
                #expect(range.lowerBound == Int64(off) || range.lowerBound % device.unit == 0)
                #expect(range.upperBound == Int64(off + len) || range.upperBound % device.unit == 0)
            }
        }
    }

    @Test func profilesAreValidated() {
        #expect(DeviceProfile(sector: 4096, atomicWrite: 4096).validationError() == nil)
        #expect(DeviceProfile(sector: 1000).validationError() != nil)
        #expect(DeviceProfile(sector: 4096, atomicWrite: 512).validationError() != nil)
    }
}
