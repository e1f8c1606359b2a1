import Foundation

extension FaultRule {
    /// Whether the calling thread belongs to one of `groups`, the process groups a scoped rule is limited to
    /// (`process_groups`): the runner starts every child as the leader of a group of its own, so a group is one
    /// writer, one backup step, or one sidecar with the tool its shell runs. Asked only for a rule that matched
    /// the call's op and path and is scoped: one getpgid(2) (Linux resolves a thread id too). A call FUSE gives
    /// no caller for (the kernel's own writeback) is outside every scope.
    static func caller(_ pid: Int32?, isIn groups: [Int32]) -> Bool {
        guard let pid else { return false }
        let group = getpgid(pid)
        return group > 0 && groups.contains(group)
    }
}
