import ChildProcesses
import Foundation
import StoreModel

/// `command` backup: a user's own program. It gets LIFEBOAT_STORE (the live store's path) and
/// LIFEBOAT_BACKUP_DIR (the directory to fill) and must leave the backup store there under the live store's name.
/// In a scenario run it also gets LIFEBOAT_SCENARIO_DIR, the scenario file's directory, to find its scripts.
public struct CommandBackup: BackupStrategy {
    public init() {}
    public var name: String { "command" }
    public var summary: String { "your own program: env LIFEBOAT_STORE, LIFEBOAT_BACKUP_DIR (backup keeps the live file name)" }

    public func backup(live: URL, into directory: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome {
        try timed {
            guard let command = options.command else { throw CommandError.missingCommand("backup command") }
            if let reason = EnvironmentFailure.preflight(command: command) { throw CommandError.environment(reason) }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let result = try ChildProcess.shell(command, environment: [
                "LIFEBOAT_STORE": live.path, "LIFEBOAT_BACKUP_DIR": directory.path,
            ], timeout: options.timeout)
            try result.check(command)
            var outcome = StrategyOutcome(strategy: name, store: backupStore(for: live, in: directory))
            outcome.details["command"] = command
            return outcome
        }
    }
}

/// `command` restore: a user's own program. It gets LIFEBOAT_BACKUP (the backup store's path) and
/// LIFEBOAT_STORE (the live store's path to restore over).
public struct CommandRestore: RestoreStrategy {
    public init() {}
    public var name: String { "command" }
    public var summary: String { "your own program: env LIFEBOAT_BACKUP, LIFEBOAT_STORE" }

    public func restore(backup: URL, over live: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome {
        try timed {
            guard let command = options.command else { throw CommandError.missingCommand("restore command") }
            if let reason = EnvironmentFailure.preflight(command: command) { throw CommandError.environment(reason) }
            let result = try ChildProcess.shell(command, environment: [
                "LIFEBOAT_BACKUP": backup.path, "LIFEBOAT_STORE": live.path,
            ], timeout: options.timeout)
            try result.check(command)
            var outcome = StrategyOutcome(strategy: name, store: live)
            outcome.details["command"] = command
            return outcome
        }
    }
}
