import ChildProcesses
import Foundation
import GRDB
import Runner

/// `lifeboat doctor`: why FaultFS would not mount here, and what else a run needs, each problem with the command
/// that fixes it. A newcomer's first minutes otherwise go to "why does FaultFS not mount" (no /dev/fuse in a
/// container, no fusermount3, no right to mount).
///
/// Every look at the machine goes through `Probes`, so a test can make a machine without /dev/fuse (or without
/// fusermount3) and check the verdict and the message; `Probes.host` is the real machine.
struct Doctor {
    enum Status: String, Codable, Sendable {
        /// Fine.
        case ok
        /// Lifeboat runs, but something is off: a recipe's tool is missing (its matrix rows are "not run"), the
        /// host's sqlite3 is in a known bug range.
        case warning
        /// Blocks runs that need it: the FaultFS drills, or any run (no scratch space). Exit 2.
        case problem
        /// Not checked, because what it needs failed first (no mount try without /dev/fuse).
        case skipped
    }

    struct Check: Codable, Sendable, Equatable {
        var name: String
        var status: Status
        var detail: String
        /// The command (or step) that fixes it, for a problem or a warning.
        var fix: String?
    }

    /// Everything the checks look at.
    struct Probes {
        var fuseDevice = "/dev/fuse"
        var environment: [String: String] = ProcessInfo.processInfo.environment
        /// Opens the device read-write and closes it: nil, or why not (strerror).
        var openDevice: (String) -> String? = { path in
            let fd = open(path, O_RDWR)
            guard fd >= 0 else { return String(cString: strerror(errno)) }
            close(fd)
            return nil
        }
        /// One real FaultFS mount in the scratch folder, unmounted at once: nil, or why it failed.
        var trialMount: (URL) -> String? = { scratch in
            try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let info = FuseProbe.detect(scratch: scratch)
            return info.available ? nil : (info.reason ?? "the trial mount failed")
        }
        /// A command's output (stdout and stderr) and exit code; nil when it cannot be started.
        var run: (String, [String]) -> (status: Int32, output: String)? = { name, arguments in
            guard let path = ChildProcesses.which(name),
                  let outcome = try? ChildProcesses.run(ChildSpec(name: name, executable: path, arguments: arguments), timeout: 30)
            else { return nil }
            return (outcome.termination.exitCode, outcome.output)
        }
        /// `/proc/self/status`, for the effective capabilities.
        var processStatus: () -> String? = { try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) }
        var kernelRelease: () -> String = {
            var name = utsname()
            uname(&name)
            return withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        var userID: () -> uid_t = { getuid() }
        /// The SQLite Lifeboat itself links (GRDB over the system libsqlite3).
        var linkedSQLite: () -> String? = {
            try? DatabaseQueue().read { try String.fetchOne($0, sql: "SELECT sqlite_version()") }
        }
        var scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lifeboat-scratch")
        var freeBytes: (URL) -> Int64? = { url in
            var directory = url
            while !FileManager.default.fileExists(atPath: directory.path), directory.path != "/" { directory.deleteLastPathComponent() }
            return (try? FileManager.default.attributesOfFileSystem(forPath: directory.path)[.systemFreeSize] as? NSNumber)?.int64Value
        }
        /// The recipes' folder (`Scenarios/tools` of a clone), nil when there is none here.
        var recipes: URL?
        var recipeVersion: (ToolMatrix.Recipe) throws -> String = { try ToolMatrix.version(of: $0) }
    }

    /// What an environment failure's message adds (`try`, `run`, `matrix`): where to look next.
    static let hint = "`lifeboat doctor` checks this machine and gives the command that fixes each problem"

    /// The least free space for scratch stores (a generated store and its copies take tens of MiB; `--store` copies
    /// the user's store once per run).
    static let minimumFreeBytes: Int64 = 1 << 30

    /// SQLite's WAL-reset bug: in 3.7.0 through 3.51.2, fixed in 3.51.3 (a checkpoint racing a writer that resets
    /// the -wal can lose committed transactions).
    static let walResetBug = (first: [3, 7, 0], fixed: [3, 51, 3])

    /// Whether an SQLite version ("3.40.1") lies in the WAL-reset bug's range.
    static func hasWALResetBug(_ version: String) -> Bool? {
        let parts = version.split(separator: ".").map { Int($0.prefix { $0.isNumber }) ?? 0 }
        guard parts.count >= 2 else { return nil }
        let padded = Array((parts + [0, 0]).prefix(3))
        return !padded.lexicographicallyPrecedes(walResetBug.first) && padded.lexicographicallyPrecedes(walResetBug.fixed)
    }

    static func checks(_ probes: Probes) -> [Check] {
        var checks: [Check] = []
        let container = probes.environment["container"] != nil || FileManager.default.fileExists(atPath: "/.dockerenv")
        let containerFix = "run the container with --device /dev/fuse --cap-add SYS_ADMIN --security-opt apparmor:unconfined"

        // FUSE: the device, opening it, fusermount3, the right to mount.
        var deviceOK = false
        if !FileManager.default.fileExists(atPath: probes.fuseDevice) {
            checks.append(Check(name: "fuse-device", status: .problem, detail: "\(probes.fuseDevice) does not exist: FaultFS cannot mount, and every situation that needs it is skipped",
                                fix: container ? containerFix + " (and load the module on the host: sudo modprobe fuse)"
                                    : "sudo modprobe fuse (in a container: \(containerFix))"))
        } else if let reason = probes.openDevice(probes.fuseDevice) {
            checks.append(Check(name: "fuse-device", status: .problem, detail: "\(probes.fuseDevice) cannot be opened read-write: \(reason)",
                                fix: "run as root (sudo lifeboat ...), or: sudo chmod 0666 \(probes.fuseDevice)"))
        } else {
            deviceOK = true
            checks.append(Check(name: "fuse-device", status: .ok, detail: "\(probes.fuseDevice) exists and opens read-write"))
        }
        let fusermount = probes.run("fusermount3", ["-V"])
        if let fusermount {
            checks.append(Check(name: "fusermount3", status: .ok, detail: FindingTextLine.first(fusermount.output) ?? "fusermount3 is on PATH"))
        } else {
            checks.append(Check(name: "fusermount3", status: .problem, detail: "fusermount3 is not on PATH (FaultFS unmounts with it)",
                                fix: "sudo apt-get install fuse3 libfuse3-dev"))
        }
        let capabilities = probes.processStatus().flatMap { status in
            status.split(separator: "\n").first { $0.hasPrefix("CapEff:") }.flatMap { UInt64($0.dropFirst(7).trimmingCharacters(in: .whitespaces), radix: 16) }
        }
        let sysAdmin = capabilities.map { $0 & (1 << 21) != 0 }
        let who = probes.userID() == 0 ? "root" : "uid \(probes.userID())"
        let rights = "\(who), CAP_SYS_ADMIN " + (sysAdmin.map { $0 ? "held" : "not held" } ?? "unknown")
        if deviceOK {
            if let reason = probes.trialMount(probes.scratch.appendingPathComponent("doctor-\(getpid())")) {
                checks.append(Check(name: "mount", status: .problem, detail: "a trial FaultFS mount failed (\(rights)): \(reason)",
                                    fix: container ? containerFix : "run as root (sudo), or allow user mounts: install fuse3 (fusermount3 is setuid root); under AppArmor: --security-opt apparmor:unconfined"))
            } else {
                checks.append(Check(name: "mount", status: .ok, detail: "a trial FaultFS mount succeeded (\(rights))"))
            }
        } else {
            checks.append(Check(name: "mount", status: .skipped, detail: "not tried: \(probes.fuseDevice) is not usable (\(rights))"))
        }

        // Versions: the kernel and libfuse, for bug reports.
        let libfuse = probes.run("pkg-config", ["--modversion", "fuse3"]).flatMap { $0.status == 0 ? FindingTextLine.first($0.output) : nil }
        checks.append(Check(name: "versions", status: .ok, detail: "kernel \(probes.kernelRelease()); libfuse3 \(libfuse ?? "unknown (pkg-config --modversion fuse3 failed)")"
                            + (fusermount.flatMap { FindingTextLine.first($0.output) }.map { "; \($0)" } ?? "")))

        // SQLite: the host's sqlite3 (recipes and users' scripts run it) and the one Lifeboat links.
        let bugNote = "SQLite 3.7.0 through 3.51.2 has the WAL-reset bug (fixed in 3.51.3): a finding about a program that runs it needs that ruled out"
        if let shell = probes.run("sqlite3", ["--version"]), shell.status == 0, let version = shell.output.split(separator: " ").first.map(String.init) {
            if hasWALResetBug(version) == true {
                checks.append(Check(name: "sqlite3", status: .warning, detail: "the host's sqlite3 is \(version): \(bugNote)",
                                    fix: "install SQLite 3.51.3 or later for the programs you test (or test with a tool that ships its own, e.g. apsw)"))
            } else {
                checks.append(Check(name: "sqlite3", status: .ok, detail: "the host's sqlite3 is \(version), outside the WAL-reset bug's range"))
            }
        } else {
            checks.append(Check(name: "sqlite3", status: .warning, detail: "no sqlite3 on PATH: the recipes and scripts that run it cannot",
                                fix: "sudo apt-get install sqlite3"))
        }
        if let linked = probes.linkedSQLite() {
            let buggy = hasWALResetBug(linked) == true
            checks.append(Check(name: "libsqlite3", status: buggy ? .warning : .ok,
                                detail: "Lifeboat's own SQLite (the writers, the checks) is \(linked)" + (buggy ? ": \(bugNote)" : ""),
                                fix: buggy ? "build Lifeboat against SQLite 3.51.3 or later (libsqlite3-dev)" : nil))
        }

        // Scratch space.
        if let free = probes.freeBytes(probes.scratch) {
            let text = "\(free / (1 << 20)) MiB free for scratch stores at \(probes.scratch.path)"
            checks.append(free < minimumFreeBytes
                ? Check(name: "scratch", status: .problem, detail: text + " (a run needs at least \(minimumFreeBytes / (1 << 20)) MiB)",
                        fix: "free space there, or give --scratch DIR on a larger disk")
                : Check(name: "scratch", status: .ok, detail: text))
        } else {
            checks.append(Check(name: "scratch", status: .problem, detail: "cannot read the free space at \(probes.scratch.path)",
                                fix: "give --scratch DIR on a writable disk"))
        }

        // The tools each recipe needs: each recipe's version.sh, as the matrix runs it.
        if let folder = probes.recipes {
            do {
                for recipe in try ToolMatrix.discover(folder) {
                    do {
                        let version = try probes.recipeVersion(recipe)
                        checks.append(Check(name: "recipe \(recipe.tool)", status: .ok, detail: version))
                    } catch let ToolMatrix.MatrixError.environment(reason) {
                        checks.append(Check(name: "recipe \(recipe.tool)", status: .warning,
                                            detail: "not installed: its matrix rows are not run (\(FindingTextLine.first(reason) ?? reason))",
                                            fix: "scripts/setup.sh (apt packages and the .venv's PyPI tools)"))
                    } catch {
                        checks.append(Check(name: "recipe \(recipe.tool)", status: .warning, detail: "\(error)", fix: "scripts/setup.sh"))
                    }
                }
            } catch {
                checks.append(Check(name: "recipes", status: .warning, detail: "cannot read the recipes in \(folder.path): \(error)"))
            }
        } else {
            checks.append(Check(name: "recipes", status: .skipped, detail: "no Scenarios/tools here: run from a clone of Lifeboat, or give --tools DIR"))
        }
        return checks
    }

    /// Exit 2 when any check is a problem, 0 otherwise (warnings included).
    static func exitCode(_ checks: [Check]) -> Int32 { checks.contains { $0.status == .problem } ? 2 : 0 }

    /// The text report: one line per check, its fix under it, and a last line with the verdict.
    static func lines(_ checks: [Check]) -> [String] {
        var lines: [String] = []
        for check in checks {
            let mark = switch check.status {
            case .ok: "ok      "
            case .warning: "WARNING "
            case .problem: "PROBLEM "
            case .skipped: "skipped "
            }
            lines.append("\(mark)\(check.name): \(check.detail)")
            if let fix = check.fix { lines.append("        fix: \(fix)") }
        }
        let problems = checks.filter { $0.status == .problem }.count, warnings = checks.filter { $0.status == .warning }.count
        lines.append(problems > 0 ? "doctor: \(problems) problem(s), \(warnings) warning(s): fix the problems above (exit 2)"
                     : "doctor: ready, \(warnings) warning(s)")
        return lines
    }
}

/// The first non-empty line of a command's output, trimmed.
enum FindingTextLine {
    static func first(_ text: String) -> String? {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
    }
}
