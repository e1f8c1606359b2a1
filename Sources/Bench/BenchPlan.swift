import Foundation
import Strategies

/// What one `lifeboat bench` run measures, validated before anything is generated or spawned.
public struct BenchPlan: Sendable {
    public enum Volume: String, Sendable, CaseIterable {
        /// The cache's own file system (ext4 here): `replace` copies page by page.
        case ext4
        /// A loop-mounted XFS with reflinks: `replace` can clone.
        case xfsReflink = "xfs-reflink"
        /// FaultFS over the scratch directory, no fault armed: every round reports its fsync/fdatasync calls.
        case faultfs
    }

    public var sizes: [Int64]
    public var strategies: [String]
    public var blobFraction: Double
    /// Attachment size: large enough to be stored externally (the store's bulk lives in the support folder).
    public var blobSize = 256 * 1024
    public var seed: UInt64 = 1
    public var rounds: Int
    public var volume: Volume
    public var cache: URL
    /// Where backups are written between rounds on the default volume (on the XFS volume they go on it).
    public var scratch: URL
    /// The `lifeboat` executable to spawn for `bench-child` and `check`.
    public var childExecutable: String
    public var measureChecker = true
    /// A user's own store to measure instead of generated ones (`lifeboat bench --store PATH`): copied, with its
    /// -wal and external data, into the scratch folder so no round touches the original. `sizes` then holds its
    /// one size.
    public var userStore: URL?

    public init(sizes: [Int64], strategies: [String], blobFraction: Double, rounds: Int, volume: Volume, cache: URL,
                scratch: URL, childExecutable: String) {
        self.sizes = sizes
        self.strategies = strategies
        self.blobFraction = blobFraction
        self.rounds = rounds
        self.volume = volume
        self.cache = cache
        self.scratch = scratch
        self.childExecutable = childExecutable
    }

    public static let defaultStrategies = ["migrate", "replace", "backup-api", "vacuum-into", "file-copy-full"]

    /// "64MB,256MB,1GB": sizes of at least 1 MB, each once, in increasing order.
    public static func parseSizes(_ text: String) throws -> [Int64] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        var sizes: [Int64] = []
        for item in items {
            guard let size = ByteCount.parse(item) else {
                throw BenchError.badInput("--sizes: '\(item)' is not a size (write e.g. 64MB, 256MB, 1GB, 200MiB)")
            }
            guard size >= 1_000_000 else { throw BenchError.badInput("--sizes: '\(item)' is below 1MB") }
            guard size <= 1_000_000_000_000 else { throw BenchError.badInput("--sizes: '\(item)' is above 1TB") }
            if !sizes.contains(size) { sizes.append(size) }
        }
        return sizes.sorted()
    }

    /// "migrate,replace": backup strategies from the catalog (`command` needs a command line, so it is refused).
    public static func parseStrategies(_ text: String) throws -> [String] {
        let known = StrategyCatalog.backups.map(\.name).filter { $0 != "command" }
        var names: [String] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard known.contains(item) else {
                throw BenchError.badInput("--strategies: unknown backup strategy '\(item)'; known: \(known.joined(separator: ", "))")
            }
            if !names.contains(item) { names.append(item) }
        }
        return names
    }
}
