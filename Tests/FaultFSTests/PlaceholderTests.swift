import Testing
@testable import FaultFS
@Test func protocolVersionIsOne() { #expect(FaultFSVersion.protocolVersion == 1) }
