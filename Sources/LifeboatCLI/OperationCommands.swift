import ArgumentParser
import CLifeboatSys
import Foundation
import StoreModel
import Strategies

/// Options shared by the commands that run one strategy by hand. The engine's own handshakes with its children
/// (a start gate, a hold at page N, a step gate) are not flags here: its children are `lifeboat step --config`,
/// with one `StrategyRun` each.
struct StrategyArguments: ParsableArguments {
    @Option(help: "backup-api: pages per step.") var pagesPerStep: Int32 = 64
    @Option(help: "backup-api: seconds to pause between steps.") var stepDelay: Double?
    @Option(help: "backup-api: fail after this many restarts.") var maxRestarts: Int?
    @Option(help: "command strategies: the shell command to run.") var command: String?
    @Flag(help: "replace: never clone, always copy.") var noClone = false
    @Option(help: "replace: the destination options' journal mode (wal, delete, truncate, memory, off), as addPersistentStore would set it; default: the source's.")
    var destinationJournalMode: StoreOptions.JournalMode?
    @Option(help: "replace: the destination options' page size in bytes (a power of two, 512-65536); default: the source's.")
    var destinationPageSize: Int?
    @Option(help: "migrate: a destination that already holds a store is appended to (append, the default) or emptied first (overwrite); the sources disagree, see docs/fidelity.md.")
    var migrateExisting: MigrateOptions.ExistingDestination = .append
    @Flag(help: "migrate on a store with no identity attribute: keep the source's primary keys in a fresh destination (Core Data hands out new ones; drills ask for this so their oracle can name objects by key).")
    var keepSourceKeys = false
    @Flag(help: "backup-api, vacuum-into, sqlite3-cli: do not copy the external data folder.") var noExternalData = false
    @Option(help: ArgumentHelp("CloudKit moves: the cloud zone's directory (docs/cloudkit.md).", valueName: "dir")) var cloud: String?
    @Option(help: "CloudKit moves: the NSPersistentCloudKitContainer's name (the App Group move's cleanup names files after it).")
    var cloudkitContainer: String = "iCloud.com.example.Library"
    @Option(help: "CloudKit moves: seconds an operation waits on the mirror's setup before giving up.") var mirrorSetupDeadline: Double = 5
    @Flag(help: "Moves: keep the CloudKit options on while the store moves (loading it waits on the mirror's setup, which never completes signed out; needs --cloud).")
    var cloudkitOnDuringMove = false

    func validate() throws {
        if let maxRestarts, maxRestarts < 0 { throw ValidationError("--max-restarts must not be negative") }
        // sqlite3_backup_step(0) copies nothing, so a backup with 0 pages per step never ends.
        if pagesPerStep == 0 || pagesPerStep < -1 { throw ValidationError("--pages-per-step must be -1 (all at once) or at least 1") }
        if let destinationPageSize, !(512...65536).contains(destinationPageSize) || destinationPageSize & (destinationPageSize - 1) != 0 {
            throw ValidationError("--destination-page-size must be a power of two between 512 and 65536")
        }
        if let stepDelay, !(0...10).contains(stepDelay) { throw ValidationError("--step-delay must be between 0 and 10 seconds") }
        if !(0.1...3600).contains(mirrorSetupDeadline) { throw ValidationError("--mirror-setup-deadline must be between 0.1 and 3600 seconds") }
    }

    var options: StrategyOptions {
        var options = StrategyOptions()
        options.pagesPerStep = pagesPerStep
        if let stepDelay { options.stepDelay = stepDelay }
        if let maxRestarts { options.maxRestarts = maxRestarts }
        options.command = command
        options.allowClone = !noClone
        options.copyExternalData = !noExternalData
        options.migrateExistingDestination = migrateExisting
        options.keepSourceKeys = keepSourceKeys
        options.replaceJournalMode = destinationJournalMode
        options.replacePageSize = destinationPageSize
        options.cloud = cloud.map { URL(cliPath: $0).path }
        options.cloudKitContainerName = cloudkitContainer
        options.mirrorSetupDeadline = mirrorSetupDeadline
        options.cloudKitDuringMove = cloudkitOnDuringMove
        return options
    }

    /// Runs one operation by hand with these options: the same `StrategyRun` the engine gives its step children
    /// (the strategy from the catalog, the app's model from the store it starts from), printed for a person.
    func run(_ action: StrategyRun.Action, _ strategy: String, from source: String, to destination: String) throws {
        let step = StrategyRun(action: action, strategy: strategy, source: URL(cliPath: source).path, destination: URL(cliPath: destination).path,
                               options: options)
        try runStrategy(json: false) { try step.perform() }
    }
}

/// Runs a strategy, turning its failure into exit 1 with the reason (the operation failed, a finding). With a
/// `startGate`, nothing runs until the runner has made that file: a fault rule scoped to this process (`actor`) is
/// armed after the process starts, and a quick program could otherwise make its calls before it is.
func runStrategy(json: Bool, startGate: String? = nil, _ body: () throws -> StrategyOutcome) throws {
    if let startGate {
        let deadline = Date().addingTimeInterval(120)
        while !FileManager.default.fileExists(atPath: startGate) {
            guard Date() < deadline else { throw CLIFailure.badInput("environment: the runner never opened the start gate \(startGate)") }
            usleep(500)
        }
    }
    do {
        var outcome = try body()
        outcome.details["peakRSSKiB"] = String(lb_self_maxrss_kib())
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            print(String(decoding: try encoder.encode(outcome), as: UTF8.self))
            return
        }
        let details = outcome.details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        print("\(outcome.strategy): \(outcome.store) in \(String(format: "%.3f", outcome.seconds)) s \(details)")
    } catch CommandError.environment(let reason) {
        // Nothing of the program ran: an environment error (exit 2), never a finding about the program.
        if json, let line = try? JSONEncoder().encode(EnvironmentFailureLine(environmentError: reason)) {
            print(String(decoding: line, as: UTF8.self))
        }
        throw CLIFailure.badInput("environment: \(reason)")
    } catch let unknown as UnknownStrategy {
        throw CLIFailure.badInput(unknown.description)
    } catch let error as StoreError {
        // A store that is not there or cannot be read is bad input (exit 2); the operation left it untouched.
        switch error {
        case .missingStore, .unopenable, .unreadableBackup, .notACoreDataStore: throw CLIFailure.badInput("\(error)")
        default: throw CLIFailure.violation("operation failed: \(error)")
        }
    } catch {
        throw CLIFailure.violation("operation failed: \(error)")
    }
}

/// `lifeboat backup`: one backup of a live store with a named strategy.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "backup", abstract: "Back up a store with a named strategy.")
    @Option(help: "Backup strategy (see `lifeboat strategies`).") var strategy: String
    @Argument(help: "The live store's .sqlite file.") var store: String
    @Argument(help: "Directory that receives the backup (same file name as the store).") var directory: String
    @OptionGroup var arguments: StrategyArguments

    func run() throws {
        try arguments.run(.backup, strategy, from: store, to: directory)
    }
}

/// `lifeboat restore`: puts a backup back over a live store with a named strategy.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "restore", abstract: "Restore a backup over a store with a named strategy.")
    @Option(help: "Restore strategy (see `lifeboat strategies`).") var strategy: String
    @Argument(help: "The backup store's .sqlite file.") var backup: String
    @Argument(help: "The live store's .sqlite file to restore over.") var store: String
    @OptionGroup var arguments: StrategyArguments

    func run() throws {
        try arguments.run(.restore, strategy, from: backup, to: store)
    }
}

/// `lifeboat relocate`: moves a store to a new location with a named strategy (docs/pitfalls.md: [slazinski]).
struct RelocateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "relocate", abstract: "Move a store to a new location with a named strategy.")
    @Option(help: "Relocation strategy (see `lifeboat strategies`).") var strategy: String
    @Argument(help: "The store's current .sqlite file.") var from: String
    @Argument(help: "The new .sqlite file.") var to: String
    @OptionGroup var arguments: StrategyArguments

    func run() throws {
        try arguments.run(.relocate, strategy, from: from, to: to)
    }
}

/// `lifeboat step --config FILE`: one backup, restore or move of a run, as the engine wrote it (`StrategyRun`);
/// started by the engine, not by hand. Prints the outcome as one JSON line (with this process's peak RSS), or
/// `EnvironmentFailureLine` when its program could not run.
struct StepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "step", abstract: "Run one backup, restore or move of a run (used by `lifeboat run`).",
                                                    shouldDisplay: false)
    @Option(help: "The step's configuration (JSON written by the engine).") var config: String

    func run() throws {
        let step = try ChildConfig.read(StrategyRun.self, from: config, what: "step")
        try runStrategy(json: true, startGate: step.startGate) { try step.perform() }
    }
}
