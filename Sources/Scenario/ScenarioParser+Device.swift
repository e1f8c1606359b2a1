import Foundation
import Yams

extension ScenarioParser {
    /// `faults.device`: a profile name (`ssd-4k-atomic`), or `{profile: NAME, sector: 512 | 4096,
    /// atomic_write: BYTES, powersafe_overwrite: BOOL}` where the keys override the profile (or the defaults).
    static func device(_ node: Node, file: String) throws -> Scenario.Device {
        let known = DeviceProfiles.named.keys.sorted().joined(separator: ", ")
        if case .scalar(let scalar) = node {
            guard let profile = DeviceProfiles.named[scalar.string] else {
                let mark = node.mark
                throw ScenarioError(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1,
                                    message: "faults.device: unknown profile '\(scalar.string)'; known: \(known)")
            }
            return profile
        }
        var r = try NodeReader(node, file: file, context: "faults.device")
        var device = Scenario.Device()
        if let name = try r.string("profile") {
            guard let profile = DeviceProfiles.named[name] else { throw r.error(r.node("profile"), "faults.device.profile: unknown profile '\(name)'; known: \(known)") }
            device = profile
        }
        if let sector = try r.int("sector", range: 512...65536) {
            guard sector & (sector - 1) == 0 else { throw r.error(r.node("sector"), "faults.device.sector must be a power of two (512, 4096), not \(sector)") }
            device.sector = sector
        }
        if let atomic = try r.size("atomic_write") {
            guard atomic == 0 || (atomic & (atomic - 1) == 0 && atomic <= 1 << 20) else {
                throw r.error(r.node("atomic_write"), "faults.device.atomic_write must be 0 or a power of two up to 1MiB, not \(atomic)")
            }
            device.atomicWrite = atomic
        }
        if let psow = try r.bool("powersafe_overwrite") { device.powersafeOverwrite = psow }
        if device.atomicWrite != 0, device.atomicWrite < device.sector {
            throw r.error(nil, "faults.device.atomic_write (\(device.atomicWrite)) must be 0 or at least the sector size (\(device.sector))")
        }
        try r.finish()
        return device
    }
}
