import ArgumentParser
import FaultFS
import Foundation

/// `lifeboat faultfs ...`: the FaultFS tool (mount in the foreground, ctl, status, log, unmount) under the main
/// command, so one binary does everything; the same as the `faultfs` executable. Its arguments pass through to
/// FaultFS's own parser, except a request for help, which gets the same OVERVIEW/USAGE/ARGUMENTS shape as every
/// other command (FaultFS's own usage lines, named `lifeboat faultfs`, in the discussion).
struct FaultFSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faultfs",
        abstract: "FaultFS, the fault-injecting FUSE file system: mount (foreground), ctl, status, log, unmount.",
        discussion: commands)

    /// FaultFS's commands, one short line each: the help wraps every line at the terminal's width (80 columns
    /// and more), so none may be longer. Options of `mount` are listed after.
    static let commands = """
        COMMANDS:
          lifeboat faultfs mount BACKING MOUNTPOINT [OPTIONS]   mount in the foreground
          lifeboat faultfs ctl SOCKET VERB [ARGS]   talk to a mounted FaultFS; VERB is
        \(ControlVerb.usage(width: 80, indent: "      "))
              RULE_JSON's action kinds:
        \(FaultAction.Kind.namesWrapped(width: 80, indent: "      "))
          lifeboat faultfs status SOCKET        unsynced files and pending entries
          lifeboat faultfs log FILE             the op log, one line per record
          lifeboat faultfs unmount MOUNTPOINT   clear FUSE mounts at or under it

        MOUNT OPTIONS:
          --control SOCKET  --log FILE  --log-data  --seed N  --max-threads N
          --exit-with-parent  --memory-budget BYTES[K|M|G]  --spill-dir DIR
          --mmap  --host-sync on|off  --fsync-failure ext4|xfs|btrfs
          --high-level   (docs/faultfs.md)
        """

    /// FaultFS's own usage, which `commands` restates (a test keeps the two in step).
    static var toolUsage: String { FaultFSCommandLine.usage }

    @Argument(parsing: .captureForPassthrough,
              help: ArgumentHelp("A FaultFS command and its arguments (mount, ctl, status, log or unmount; see COMMANDS).",
                                 valueName: "command"))
    var arguments: [String] = []

    func run() throws {
        if arguments.isEmpty || ["-h", "--help", "help"].contains(arguments[0]) {
            print(Lifeboat.helpMessage(for: Self.self))
            return
        }
        let status = FaultFSCommandLine.run(["faultfs"] + arguments)
        if status != 0 { throw ExitCode(status) }
    }
}
