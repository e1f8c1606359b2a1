#if canImport(Glibc)
import Glibc
#endif

extension FaultDecision {
    /// The errno to fail with when the deciding action is `errno`.
    var errnoValue: Int32? {
        if case .errno(let errno)? = action { return errno.value }
        return nil
    }
}

extension FaultFileSystem {
    /// Consults the rules for a call and applies any delay before the call runs.
    @inline(__always)
    func check(_ op: FaultOp, _ paths: [String], bytes: Int = 0) -> FaultDecision {
        let d = faults.evaluate(op, paths: paths, bytes: bytes)
        if d.delayMS > 0 { usleep(UInt32(min(d.delayMS, 600_000)) * 1000) }
        if let hold = d.hold { faults.hold(rule: hold.rule, ms: hold.ms) }
        return d
    }

    /// Checks a call and, if a rule injects an errno, logs it and returns -errno.
    func injected(_ op: FaultOp, _ path: String, _ path2: String? = nil) -> (Int32?, String?) {
        let d = check(op, path2.map { [path, $0] } ?? [path])
        if let e = d.errnoValue {
            logOp(LoggedOp(op), path, result: Int64(-e), fault: d.ruleID) { $0.path2 = path2 }
            return (-e, d.ruleID)
        }
        return (nil, d.ruleID)
    }

    /// The handle behind a fuse_file_info, or nil when the handle is stale (opened before a crash).
    func liveHandle(_ fh: UInt64) -> OpenFile? {
        guard let h = handle(fh), h.epoch == epoch.load(ordering: .relaxed) else { return nil }
        return h
    }
}
