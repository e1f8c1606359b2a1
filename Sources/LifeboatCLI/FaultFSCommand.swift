import ArgumentParser
import FaultFS
import Foundation

/// `lifeboat faultfs ...`: the FaultFS tool (mount in the foreground, ctl, status, log, unmount) under the main
/// command, so one binary does everything; the same as the `faultfs` executable.
struct FaultFSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faultfs",
        abstract: "FaultFS: mount (foreground), ctl SOCKET VERB, status SOCKET, log FILE, unmount MOUNTPOINT.",
        discussion: FaultFSCommandLine.usage)

    @Argument(parsing: .captureForPassthrough, help: "A FaultFS command and its arguments.") var arguments: [String] = []

    func run() throws {
        let status = FaultFSCommandLine.run(["faultfs"] + arguments)
        if status != 0 { throw ExitCode(status) }
    }
}
