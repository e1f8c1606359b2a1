import FaultFS
print("faultfs protocol \(FaultFSVersion.protocolVersion)")
