import ChildProcesses

extension StaleMounts {
    /// Runs fusermount3 with `arguments`; its exit code, or -1 when it could not start or was killed (30 s:
    /// an unmount that hangs must not hang the harness).
    @discardableResult
    static func fusermount(_ arguments: [String]) -> Int32 {
        guard let outcome = try? ChildProcesses.run(ChildSpec(name: "fusermount3", executable: "/usr/bin/fusermount3",
                                                               arguments: arguments), timeout: 30),
              outcome.termination.signal == nil, !outcome.termination.timedOut else { return -1 }
        return outcome.termination.exitCode
    }
}
