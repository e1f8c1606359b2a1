import Foundation

extension Scenario {
    /// The simulated disk under FaultFS (`faults.device`): where torn writes and crash modes may cut. See
    /// docs/devices.md for the profiles and what SQLite's documentation predicts on each.
    public struct Device: Sendable, Equatable, Codable {
        /// Bytes per sector: tears fall only on sector boundaries (512 or 4096 on real disks).
        public var sector = 512
        /// Aligned units of this many bytes are written all or nothing (0: single sectors only).
        public var atomicWrite = 0
        /// Whether writing part of a sector leaves the sector's other bytes alone after a power failure.
        public var powersafeOverwrite = true
        /// The named profile it came from, if any (reports only).
        public var profile: String?
        public init() {}

        public init(sector: Int, atomicWrite: Int, powersafeOverwrite: Bool, profile: String? = nil) {
            self.sector = sector
            self.atomicWrite = atomicWrite
            self.powersafeOverwrite = powersafeOverwrite
            self.profile = profile
        }
    }
}

/// Documented device profiles, by name (`faults.device: ssd-4k-atomic`). Sources: SQLite's VFS device
/// characteristics (sqlite.org/c3ref/c_iocap_atomic.html) and powersafe overwrite (sqlite.org/psow.html).
public enum DeviceProfiles {
    public static let named: [String: Scenario.Device] = [
        // A 512-byte-sector disk that rewrites a whole sector to change part of it (read-modify-write): no powersafe
        // overwrite, so a torn partial-sector write loses the sector's other bytes. SQLite assumed this of every
        // disk before 3.7.10 (psow.html).
        "hdd-512": .init(sector: 512, atomicWrite: 512, powersafeOverwrite: false, profile: "hdd-512"),
        // The same disk with powersafe overwrite: what SQLite's unix VFS assumes by default (SQLITE_POWERSAFE_OVERWRITE=1).
        "hdd-512-psow": .init(sector: 512, atomicWrite: 512, powersafeOverwrite: true, profile: "hdd-512-psow"),
        // A 4 KiB-sector SSD or NVMe drive whose aligned 4 KiB writes are atomic (SQLITE_IOCAP_ATOMIC4K) and
        // powersafe (SQLITE_IOCAP_POWERSAFE_OVERWRITE).
        "ssd-4k-atomic": .init(sector: 4096, atomicWrite: 4096, powersafeOverwrite: true, profile: "ssd-4k-atomic"),
        // An NVMe drive with a 16 KiB atomic write unit (AWUPF), e.g. for 16 KiB database pages (SQLITE_IOCAP_ATOMIC16K).
        "nvme-16k-atomic": .init(sector: 4096, atomicWrite: 16384, powersafeOverwrite: true, profile: "nvme-16k-atomic"),
    ]
}
