import CFuse3

extension FaultFileSystem {
    /// The pid FUSE reports for the request served on the calling thread: the process that made the call, so a
    /// fired rule can name the writer or backup step behind it. Nil outside a request.
    static let fuseCallerPID: @Sendable () -> Int32? = {
        guard let pid = currentFuseContext()?.pid else { return nil }
        return pid > 0 ? pid : nil
    }
}
