import ArgumentParser
import Foundation
import StoreModel

/// `lifeboat cloud`: the deterministic stand-in for a CloudKit zone (docs/cloudkit.md).
struct CloudCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cloud", abstract: "Create or show a cloud zone directory (docs/cloudkit.md).",
                                                    subcommands: [Create.self, Show.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create an empty zone (or set the account status of one).")
        @Argument(help: "The zone's directory (outside the store's volume).") var directory: String
        @Option(help: "iCloud account status: available, or unavailable (signed out).") var account: String = "available"

        func run() throws {
            guard let status = CloudKitZone.Account(rawValue: account) else {
                throw CLIFailure.badInput("--account must be available or unavailable, not '\(account)'")
            }
            let zone = try CloudKitZone.create(at: URL(cliPath: directory), account: status)
            print(try zone.describe())
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print a zone: account, change counter, one line per record.")
        @Argument(help: "The zone's directory.") var directory: String

        func run() throws {
            let zone = CloudKitZone(URL(cliPath: directory))
            guard zone.exists else { throw CLIFailure.badInput("\(zone.directory.path) holds no zone (no zone.json); create one with `lifeboat cloud create`") }
            do { print(try zone.describe()) } catch { throw CLIFailure.badInput("\(error)") }
        }
    }
}

/// `lifeboat mirror`: one sync (export, then import) of a store with a zone, as NSPersistentCloudKitContainer's
/// mirroring delegate would do it (docs/cloudkit.md). The same `MirrorRun` a run's `mirror-step` children get.
struct MirrorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mirror", abstract: "Sync a store with a cloud zone once (export, then import).")
    @Argument(help: "The store's .sqlite file.") var store: String
    @Option(help: ArgumentHelp("The zone's directory (created when missing).", valueName: "dir")) var cloud: String
    @Option(help: "Seed of the record names this sync draws.") var seed: UInt64 = 1
    @Option(help: "Seconds the mirror's setup retries while the account is unavailable.") var setupDeadline: Double = 5
    @Flag(help: "Print the sync's report as one JSON line.") var json = false

    func validate() throws {
        guard (0.1...3600).contains(setupDeadline) else { throw ValidationError("--setup-deadline must be between 0.1 and 3600 seconds") }
    }

    func run() throws {
        let sync = MirrorRun(store: URL(cliPath: store).path, cloud: URL(cliPath: cloud).path, seed: seed, setupDeadline: setupDeadline)
        try runMirror(sync, json: json)
    }
}

/// `lifeboat mirror-step --config FILE`: one sync of a run's `sync: live` or `device: NAME` entry, as the engine
/// wrote it (`MirrorRun`, read through `ChildConfig`); started by the engine, not by hand. Prints the report as one
/// JSON line.
struct MirrorStepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "mirror-step", abstract: "Run one sync of a run (used by `lifeboat run`).",
                                                    shouldDisplay: false)
    @Option(help: "The sync's configuration (JSON written by the engine).") var config: String

    func run() throws {
        try runMirror(try ChildConfig.read(MirrorRun.self, from: config, what: "mirror"), json: true)
    }
}

/// Runs one sync and prints its report: a store that is not there or will not open is bad input (exit 2), a
/// mirror that fails (its setup never completed) exit 1 with the reason.
func runMirror(_ sync: MirrorRun, json: Bool) throws {
    let report: CloudKitMirror.Report
    do {
        report = try sync.perform()
    } catch let error as MirrorRun.BadInput {
        throw CLIFailure.badInput("\(error)")
    } catch let error as CloudKitMirror.MirrorError {
        throw CLIFailure.violation("\(error)")
    }
    if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    } else {
        print("exported \(report.exportedNew) new, \(report.exportedChanged) changed, deleted \(report.deletedInZone) in the zone; imported \(report.importedNew) new, \(report.importedChanged) changed, \(report.importedDeletes) deletes; token \(report.tokenBefore.map(String.init) ?? "none") -> \(report.tokenAfter)\(report.fullImport ? " (whole zone read)" : "")")
    }
}
