import Foundation
import Reporting

/// Whether FaultFS can mount here, decided once per campaign: a CI container without `/dev/fuse` (or without
/// the right to mount) then skips the drills that need FaultFS, with this reason, instead of failing each.
///
/// `LIFEBOAT_NO_FUSE=1` (any value but empty or 0) says no without looking, so the skip path can be tested on
/// a machine that has FUSE, and a CI job can opt out on purpose.
public enum FuseProbe {
    public static let environmentOverride = "LIFEBOAT_NO_FUSE"

    /// The quick checks: the override and the device node. Nil when they pass.
    public static func quickReason(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let value = environment[environmentOverride], !value.isEmpty, value != "0" {
            return "\(environmentOverride)=\(value) is set"
        }
        guard FileManager.default.fileExists(atPath: "/dev/fuse") else {
            return "/dev/fuse does not exist (in a container: docker run --device /dev/fuse --cap-add SYS_ADMIN)"
        }
        let fd = open("/dev/fuse", O_RDWR)
        guard fd >= 0 else {
            return "/dev/fuse cannot be opened: \(String(cString: strerror(errno)))"
        }
        close(fd)
        return nil
    }

    /// The quick checks, then (with `trialMount`) one real FaultFS mount in `scratch`, unmounted at once.
    public static func detect(scratch: URL, trialMount: Bool = true) -> SuiteSummary.FuseInfo {
        if let reason = quickReason() { return SuiteSummary.FuseInfo(available: false, reason: reason) }
        guard trialMount else { return SuiteSummary.FuseInfo(available: true, reason: nil) }
        let directory = scratch.appendingPathComponent("fuse-probe-\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let volume = try FaultFSVolume(directory: directory.appendingPathComponent("mnt"), seed: 0, log: nil)
            try volume.close()
            return SuiteSummary.FuseInfo(available: true, reason: nil)
        } catch {
            return SuiteSummary.FuseInfo(available: false, reason: "a trial FaultFS mount failed: \(error)")
        }
    }
}
