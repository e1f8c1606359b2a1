/// FaultFS: the fault-injecting FUSE file system. (Being built in issue 3.)
public enum FaultFSVersion {
    public static let protocolVersion = 1
}
