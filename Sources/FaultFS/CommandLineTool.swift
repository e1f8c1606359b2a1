import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The `faultfs` command line, kept in the library so main.swift stays a one-liner and argument handling
/// is testable. Bad arguments print a message and usage and return 2; nothing crashes.
public enum FaultFSCommandLine {
    public static let usage = """
    usage:
      faultfs mount BACKING MOUNTPOINT [--control SOCKET] [--log FILE] [--log-data] [--seed N] [--max-threads N]
                                         [--exit-with-parent] [--memory-budget BYTES[K|M|G]] [--spill-dir DIR]
                                         [--mmap] [--host-sync on|off] [--fsync-failure ext4|xfs|btrfs] [--high-level]
      faultfs ctl SOCKET VERB [ARGS]     VERB [ARGS] is one of (docs/faultfs.md, "Control protocol"):
    \(ControlVerb.usage(width: 110, indent: String(repeating: " ", count: 38)))
                                          RULE_JSON's action kinds (docs/faultfs.md):
    \(FaultAction.Kind.namesWrapped(width: 110, indent: String(repeating: " ", count: 38)))
      faultfs status SOCKET              unsynced files and pending directory entries
      faultfs log FILE                   the op log, one line per record
      faultfs unmount MOUNTPOINT         clear FUSE mounts at or under MOUNTPOINT (stale ones included)
    """

    /// Runs the command; returns the exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        var args = Array(arguments.dropFirst())
        guard let command = args.first else { return usageError("no command") }
        args.removeFirst()
        switch command {
        case "mount": return mount(args)
        case "ctl": return ctl(args)
        case "status": return args.count == 1 ? ctl([args[0], "status"]) : usageError("status needs SOCKET")
        case "log": return printLog(args)
        case "unmount":
            guard args.count == 1 else { return usageError("unmount needs MOUNTPOINT") }
            for m in StaleMounts.clean(under: args[0]) { print("unmounted \(m)") }
            return StaleMounts.fuseMounts(under: args[0]).isEmpty ? 0 : 1
        case "-h", "--help", "help":
            print(usage)
            return 0
        default: return usageError("unknown command \(command)")
        }
    }

    static func usageError(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("faultfs: \(message)\n\(usage)\n".utf8))
        return 2
    }

    /// Parses `mount` arguments.
    public static func parseMount(_ args: [String]) -> Result<DaemonOptions, FaultFSError> {
        var positional: [String] = []
        var control: String?, log: String?, logData = false, seed: UInt64 = 0, maxThreads = 16, exitWithParent = false
        var memoryBudget: Int64?, spillDirectory: String?, mmap = false, hostSync = HostSync.defaultSetting, highLevel = false
        var fsyncFailure: FsyncFailure?
        var i = 0
        while i < args.count {
            let a = args[i]
            func value() -> String? { i + 1 < args.count ? args[i + 1] : nil }
            switch a {
            case "--memory-budget", "--spill-dir":
                guard let v = value() else { return .failure(.badRequest("\(a) needs a value")) }
                if a == "--spill-dir" {
                    spillDirectory = v
                } else {
                    guard let b = parseByteCount(v) else { return .failure(.badRequest("--memory-budget needs a byte count like 64M, got \(v)")) }
                    memoryBudget = b
                }
                i += 2
            case "--control", "--log", "--seed", "--max-threads":
                guard let v = value() else { return .failure(.badRequest("\(a) needs a value")) }
                if a == "--control" { control = v }
                if a == "--log" { log = v }
                if a == "--seed" {
                    guard let s = UInt64(v) else { return .failure(.badRequest("--seed needs an unsigned integer, got \(v)")) }
                    seed = s
                }
                if a == "--max-threads" {
                    guard let n = Int(v), (2...256).contains(n) else { return .failure(.badRequest("--max-threads needs 2...256, got \(v)")) }
                    maxThreads = n
                }
                i += 2
            case "--log-data":
                logData = true
                i += 1
            case "--exit-with-parent":
                exitWithParent = true
                i += 1
            case "--mmap":
                mmap = true
                i += 1
            case "--high-level":
                highLevel = true
                i += 1
            case "--host-sync":
                guard let v = value(), let h = HostSync(rawValue: v) else {
                    return .failure(.badRequest("--host-sync needs on or off, got \(value() ?? "nothing")"))
                }
                hostSync = h
                i += 2
            case "--fsync-failure":
                guard let v = value(), let f = FsyncFailure(rawValue: v) else {
                    return .failure(.badRequest("--fsync-failure needs ext4, xfs or btrfs, got \(value() ?? "nothing")"))
                }
                fsyncFailure = f
                i += 2
            default:
                if a.hasPrefix("-") { return .failure(.badRequest("unknown option \(a)")) }
                positional.append(a)
                i += 1
            }
        }
        guard positional.count == 2 else { return .failure(.badRequest("mount needs BACKING and MOUNTPOINT")) }
        if logData && log == nil { return .failure(.badRequest("--log-data needs --log")) }
        var options = DaemonOptions(backing: positional[0], mountpoint: positional[1], control: control, log: log,
                                    logData: logData, seed: seed, maxThreads: maxThreads)
        options.exitWithParent = exitWithParent
        if let memoryBudget { options.memoryBudget = memoryBudget }
        options.spillDirectory = spillDirectory
        options.mmap = mmap
        options.highLevel = highLevel
        options.hostSync = hostSync
        options.fsyncFailure = fsyncFailure
        return .success(options)
    }

    /// "1048576", "64K", "256M", "4G" (binary multiples) to bytes; nil when malformed or out of range.
    static func parseByteCount(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(text.uppercased())
        var scale: Int64 = 1
        if let u = digits.last, let m = units[u] { scale = m; digits = digits.dropLast() }
        guard let n = Int64(digits), n >= 0 else { return nil }
        let (v, overflow) = n.multipliedReportingOverflow(by: scale)
        return overflow ? nil : v
    }

    static func mount(_ args: [String]) -> Int32 {
        switch parseMount(args) {
        case .failure(let e): return usageError(e.description)
        case .success(let o): return FaultFSDaemon.run(o)
        }
    }

    /// Builds the request for `ctl SOCKET VERB ARGS`: every `ControlVerb` (the switch is exhaustive, so a new verb
    /// cannot be left out of the command line), plus `raw REQUEST_JSON`, which sends a line as it is.
    public static func parseControl(_ args: [String]) -> Result<Data, FaultFSError> {
        guard let name = args.first else { return .failure(.badRequest("ctl needs a VERB")) }
        let rest = Array(args.dropFirst())
        if name == "raw" {
            guard rest.count == 1 else { return .failure(.badRequest("raw needs one REQUEST_JSON argument")) }
            return .success(Data(rest[0].utf8))
        }
        guard let verb = ControlVerb(rawValue: name) else {
            return .failure(.badRequest("unknown verb \(name) (\(ControlVerb.names), raw)"))
        }
        var req = ControlRequest(verb: verb)
        switch verb {
        case .ping, .rules, .status, .coverage, .syncAll, .clear, .shutdown:
            guard rest.isEmpty else { return .failure(.badRequest("\(name) takes no arguments")) }
        case .disarm, .release:
            guard rest.count == 1 else { return .failure(.badRequest("\(name) needs ID")) }
            req.id = rest[0]
        case .logMark:
            req.label = rest.joined(separator: " ")
        case .fsyncFailure:
            guard rest.count <= 1 else { return .failure(.badRequest("fsync-failure takes at most one of ext4, xfs, btrfs, none")) }
            if let setting = rest.first {
                guard let parsed = FsyncFailureSetting(name: setting) else { return .failure(.badRequest(FsyncFailureSetting.unknown(setting))) }
                req.fsyncFailure = parsed
            }
        case .device:
            guard rest.count <= 1 else { return .failure(.badRequest("device takes at most one DEVICE_JSON argument")) }
            if let json = rest.first {
                do { req.device = try JSONDecoder().decode(DeviceProfile.self, from: Data(json.utf8)) } catch {
                    return .failure(.badRequest("bad device JSON: \(error)"))
                }
                if let problem = req.device?.validationError() { return .failure(.badRequest(problem)) }
            }
        case .crash:
            do { req = .crash(rest.isEmpty ? .keepNone : try CrashMode(text: rest.joined(separator: " "))) } catch {
                return .failure(.badRequest("crash mode \(error)"))
            }
        case .arm:
            guard rest.count == 1 else { return .failure(.badRequest("arm needs one RULE_JSON argument")) }
            do {
                req.rule = try JSONDecoder().decode(FaultRule.self, from: Data(rest[0].utf8))
            } catch {
                return .failure(.badRequest("bad rule JSON: \(error)"))
            }
        }
        do { return .success(try JSONEncoder().encode(req)) } catch { return .failure(.badRequest("\(error)")) }
    }

    static func ctl(_ args: [String]) -> Int32 {
        guard args.count >= 2 else { return usageError("ctl needs SOCKET and VERB") }
        switch parseControl(Array(args.dropFirst())) {
        case .failure(let e): return usageError(e.description)
        case .success(let line):
            do {
                let reply = try ControlClient(socketPath: args[0]).send(line: line)
                print(String(decoding: reply, as: UTF8.self))
                let ok = (try? JSONDecoder().decode(ControlReply.self, from: reply))?.ok ?? false
                return ok ? 0 : 1
            } catch {
                FileHandle.standardError.write(Data("faultfs: \(error)\n".utf8))
                return 1
            }
        }
    }

    static func printLog(_ args: [String]) -> Int32 {
        guard args.count == 1 else { return usageError("log needs FILE") }
        do {
            for r in try OpLog.read(URL(fileURLWithPath: args[0])) { print(r.humanDescription) }
            return 0
        } catch {
            FileHandle.standardError.write(Data("faultfs: \(error)\n".utf8))
            return 1
        }
    }
}
