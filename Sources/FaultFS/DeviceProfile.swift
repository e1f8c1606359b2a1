/// What the simulated disk guarantees when the power fails in the middle of writes, in the terms SQLite uses for
/// its VFS (xSectorSize, xDeviceCharacteristics: sqlite.org/c3ref/c_iocap_atomic.html, sqlite.org/psow.html):
///
/// * `sector`: the unit the device writes; a torn write is cut only at a sector boundary.
/// * `atomicWrite`: aligned units of this many bytes are written all or nothing (SQLITE_IOCAP_ATOMICnK); a tear
///   never falls inside one. 0 means only single sectors are atomic.
/// * `powersafeOverwrite` (SQLITE_IOCAP_POWERSAFE_OVERWRITE): when false, a write that covers part of a sector
///   rewrites the whole sector (read-modify-write), so a power failure during it can destroy the sector's other
///   bytes too: bytes the application never wrote, such as the end of the previous, committed WAL frame.
///
/// The default (512-byte sectors, powersafe overwrite) is what FaultFS modelled before profiles existed.
public struct DeviceProfile: Codable, Sendable, Equatable {
    public var sector: Int
    public var atomicWrite: Int
    public var powersafeOverwrite: Bool

    public init(sector: Int = 512, atomicWrite: Int = 0, powersafeOverwrite: Bool = true) {
        self.sector = sector
        self.atomicWrite = atomicWrite
        self.powersafeOverwrite = powersafeOverwrite
    }

    public static let `default` = DeviceProfile()

    /// The tear granularity: tears fall on multiples of this (the larger of the sector and the atomic unit).
    public var unit: Int64 { Int64(Swift.max(sector, atomicWrite, 1)) }

    /// A message when the profile cannot describe a device, or nil.
    public func validationError() -> String? {
        guard sector >= 512, sector <= 65536, sector & (sector - 1) == 0 else { return "device sector must be a power of two from 512 to 65536" }
        guard atomicWrite == 0 || (atomicWrite >= sector && atomicWrite <= 1 << 20 && atomicWrite & (atomicWrite - 1) == 0) else {
            return "device atomic_write must be 0 or a power of two from the sector size to 1 MiB"
        }
        return nil
    }
}

/// A pending write as the tear functions see it: where, how long, and its place in the write order.
public struct PendingWriteExtent: Sendable, Equatable {
    public var seq: UInt64
    public var offset: Int64
    public var length: Int64

    public init(seq: UInt64, offset: Int64, length: Int64) {
        self.seq = seq
        self.offset = offset
        self.length = length
    }
}

/// How a crash tears writes on a device: pure functions of the pending writes (offset, length, order), the profile
/// and a seeded stream, so they hold whatever structure keeps the pending data.
public enum DeviceTear {
    static func alignDown(_ x: Int64, _ unit: Int64) -> Int64 { x >= 0 ? x / unit * unit : ((x - unit + 1) / unit) * unit }
    static func alignUp(_ x: Int64, _ unit: Int64) -> Int64 { alignDown(x + unit - 1, unit) }

    /// Where the last write is cut: a unit boundary strictly inside it chosen by the seed, or its start when none is
    /// (it lies inside one atomic unit or one sector: nothing of it lands). With the default profile this is the
    /// 512-byte cut FaultFS always made (the same draw from the same stream).
    public static func tornCut(offset: Int64, length: Int64, device: DeviceProfile, next: () -> UInt64) -> Int64 {
        let unit = device.unit
        let first = alignDown(offset, unit) + unit
        let end = offset + length
        guard first < end else { return offset }
        let count = (end - 1 - first) / unit + 1
        return first + Int64(next() % UInt64(count)) * unit
    }

    /// The bytes a torn write leaves in the fill state (zeros or garbage): the write from the cut on and, without
    /// powersafe overwrite, the rest of every partly covered sector from the cut on (the device was rewriting whole
    /// sectors). Returned as one range of file offsets; the caller clips it to what it can write.
    public static func damage(offset: Int64, length: Int64, cut: Int64, device: DeviceProfile) -> Range<Int64> {
        let end = offset + length
        guard !device.powersafeOverwrite else { return cut..<end }
        let sector = Int64(device.sector)
        // The sector in flight when the power failed is the one holding the cut; everything after it in the write's
        // sectors was not written yet (or was being rewritten) and is lost with it.
        let start = cut == offset ? alignDown(offset, sector) : cut
        return start..<alignUp(end, sector)
    }

    /// `reorder` on a device: each aligned unit of each pending write survives with probability 1/2 on its own
    /// (a disk reorders and persists its sectors independently), so a write can come back partly, never inside an
    /// atomic unit. Returns, per write seq, the ranges that survive (empty when nothing of it does).
    public static func reorderSurvivors(_ writes: [PendingWriteExtent], device: DeviceProfile, next: () -> UInt64) -> [UInt64: [Range<Int64>]] {
        let unit = device.unit
        var result: [UInt64: [Range<Int64>]] = [:]
        for write in writes.sorted(by: { $0.seq < $1.seq }) {
            var kept: [Range<Int64>] = []
            var start = write.offset
            let end = write.offset + write.length
            while start < end {
                let stop = min(end, alignDown(start, unit) + unit)
                if next() & 1 == 1 {
                    if let last = kept.last, last.upperBound == start { kept[kept.count - 1] = last.lowerBound..<stop } else { kept.append(start..<stop) }
                }
                start = stop
            }
            result[write.seq] = kept
        }
        return result
    }
}
