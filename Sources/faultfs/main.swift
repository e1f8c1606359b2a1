import FaultFS
import Foundation

// All logic (and every FUSE callback) lives in the FaultFS library: top-level code here is main-actor
// isolated and must never be called from a FUSE worker thread.
exit(FaultFSCommandLine.run(CommandLine.arguments))
