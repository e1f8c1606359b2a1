import ArgumentParser
import Bench
import Foundation
import Strategies

/// `lifeboat bench-child` (hidden): what `lifeboat bench` spawns for one round. Performs one backup (or, with
/// --check, runs the checker; with --allocate, touches that much memory) and prints one JSON line; the parent measures it from outside.
struct BenchChildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-child", abstract: "One measured bench round (spawned by `lifeboat bench`).", shouldDisplay: false)

    @Option(help: "Backup strategy.") var strategy: String?
    @Option(help: "The live store's .sqlite file.") var store: String?
    @Option(help: "Empty directory that receives the backup.") var into: String?
    @Flag(help: "Run the checker on --store instead of a backup.") var check = false
    @Flag(help: "Print the cached store for --size (generating it when missing) instead of a backup.") var prepareStore = false
    @Option(help: "--prepare-store: target size in bytes.") var size: Int64?
    @Option(help: "--prepare-store: share of notes with an attachment.") var blobFraction: Double = 0.1
    @Option(help: "--prepare-store: attachment size in bytes.") var blobSize: Int = 256 * 1024
    @Option(help: "--prepare-store: seed.") var seed: UInt64 = 1
    @Option(help: "--prepare-store: the store cache directory.") var cache: String?
    @Option(help: "Allocate and touch this much memory instead of backing up (e.g. 100MB).") var allocate: String?

    func validate() throws {
        if let allocate {
            guard ByteCount.parse(allocate) != nil else { throw ValidationError("--allocate: '\(allocate)' is not a size") }
        } else if prepareStore {
            guard let size, size > 0, cache != nil else { throw ValidationError("--prepare-store needs --size and --cache") }
        } else if check {
            guard store != nil else { throw ValidationError("--check needs --store") }
        } else if strategy == nil || store == nil || into == nil {
            throw ValidationError("give --strategy, --store and --into (or --allocate SIZE)")
        }
    }

    func run() throws {
        if prepareStore, let size, let cache {
            do {
                print(try BenchChild.prepareStore(cache: URL(cliPath: cache), targetBytes: size, blobFraction: blobFraction,
                                                  blobSize: blobSize, seed: seed))
            } catch {
                throw CLIFailure.badInput("cannot prepare the store: \(error)")
            }
            return
        }
        let report: ChildReport
        if let allocate, let bytes = ByteCount.parse(allocate) {
            report = BenchChild.allocate(bytes: Int(bytes))
        } else if check, let store {
            do {
                report = try BenchChild.check(store: URL(cliPath: store))
            } catch {
                throw CLIFailure.badInput("check failed: \(error)")
            }
        } else if let strategy, let store, let into {
            do {
                report = try BenchChild.backup(strategy: strategy, store: URL(cliPath: store), into: URL(cliPath: into))
            } catch let unknown as UnknownStrategy {
                throw CLIFailure.badInput(unknown.description)
            } catch {
                throw CLIFailure.violation("backup failed: \(error)")
            }
        } else {
            throw CLIFailure.badInput("give --strategy, --store and --into (or --allocate SIZE)")
        }
        print(try report.line())
    }
}
