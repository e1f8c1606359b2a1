import Foundation

/// Everything one `lifeboat bench` run measured, as written to `bench.json`. Versioned by `schema`, so a
/// baseline written today can be compared by a later build that knows which shape it holds.
public struct BenchReport: Codable, Sendable, Equatable {
    public static let currentSchema = "lifeboat.bench/1"

    public var schema = BenchReport.currentSchema
    public var id: String
    /// ISO 8601, UTC.
    public var createdAt: String
    public var host: Host
    public var configuration: Configuration
    public var stores: [StoreInfo]
    /// One entry per strategy and store size (and one per store size for the checker, strategy "check").
    public var results: [Result]
    /// Least-squares growth of peak RSS against store size, per strategy (and the checker).
    public var growth: [GrowthFit]

    public init(id: String, createdAt: String, host: Host, configuration: Configuration, stores: [StoreInfo],
                results: [Result], growth: [GrowthFit]) {
        self.id = id
        self.createdAt = createdAt
        self.host = host
        self.configuration = configuration
        self.stores = stores
        self.results = results
        self.growth = growth
    }

    public struct Host: Codable, Sendable, Equatable {
        public var cpus: Int
        public var memoryBytes: Int64
        public var kernel: String
        public var buildConfiguration: String
        public init(cpus: Int, memoryBytes: Int64, kernel: String, buildConfiguration: String) {
            self.cpus = cpus
            self.memoryBytes = memoryBytes
            self.kernel = kernel
            self.buildConfiguration = buildConfiguration
        }
    }

    public struct Configuration: Codable, Sendable, Equatable {
        public var sizes: [Int64]
        public var strategies: [String]
        public var blobFraction: Double
        public var blobSize: Int
        public var seed: UInt64
        public var rounds: Int
        /// "default" (the cache's own file system) or "xfs-reflink".
        public var volume: String
        /// `bench --store PATH`: the user's store measured instead of generated ones (blob fraction, attachment
        /// size and seed then describe nothing).
        public var userStore: String?
        public init(sizes: [Int64], strategies: [String], blobFraction: Double, blobSize: Int, seed: UInt64, rounds: Int, volume: String) {
            self.sizes = sizes
            self.strategies = strategies
            self.blobFraction = blobFraction
            self.blobSize = blobSize
            self.seed = seed
            self.rounds = rounds
            self.volume = volume
        }
    }

    /// A generated store the strategies ran against.
    public struct StoreInfo: Codable, Sendable, Equatable {
        public var targetBytes: Int64
        /// .sqlite + -wal + support folder, as generated.
        public var actualBytes: Int64
        public var databaseBytes: Int64
        public var objects: Int
        public var attachments: Int
        public init(targetBytes: Int64, actualBytes: Int64, databaseBytes: Int64, objects: Int, attachments: Int) {
            self.targetBytes = targetBytes
            self.actualBytes = actualBytes
            self.databaseBytes = databaseBytes
            self.objects = objects
            self.attachments = attachments
        }
    }

    /// One child process's measurements.
    public struct Round: Codable, Sendable, Equatable {
        public var wallSeconds: Double
        public var cpuSeconds: Double
        /// The child's peak resident set: its own VmHWM when it reported one, else wait4's ru_maxrss.
        public var peakRSSBytes: Int64
        /// wait4's ru_maxrss as the kernel reported it (floored at `spawnFloorBytes`, see `ProcessSpawn`).
        public var waitMaxRSSBytes: Int64
        /// The parent's resident set when it spawned the child.
        public var spawnFloorBytes: Int64?
        /// What the child measured itself.
        public var child: ChildReport?
        /// Backup .sqlite (+ companions) + support folder (nil for the checker).
        public var resultBytes: Int64?
        /// The child's resident set over its run, sampled from /proc (absent in older reports).
        public var memorySamples: [MemorySample]?
        public init(wallSeconds: Double, cpuSeconds: Double, peakRSSBytes: Int64, waitMaxRSSBytes: Int64, spawnFloorBytes: Int64?,
                    child: ChildReport?, resultBytes: Int64?) {
            self.wallSeconds = wallSeconds
            self.cpuSeconds = cpuSeconds
            self.peakRSSBytes = peakRSSBytes
            self.waitMaxRSSBytes = waitMaxRSSBytes
            self.spawnFloorBytes = spawnFloorBytes
            self.child = child
            self.resultBytes = resultBytes
        }
    }

    public struct Result: Codable, Sendable, Equatable {
        public var strategy: String
        public var targetBytes: Int64
        public var storeBytes: Int64
        public var rounds: [Round]
        public var wallSeconds: Spread
        public var cpuSeconds: Spread
        public var peakRSSBytes: Spread
        /// wait4's ru_maxrss over the rounds (never below the parent's RSS at spawn).
        public var waitMaxRSSBytes: Spread
        public var sqliteMemoryHighwater: Spread?
        public var resultBytes: Int64?
        /// Details the strategy reported in the last round (e.g. usedClone for replace).
        public var details: [String: String]
        /// The last round's output compared with the store it copied (what `check --against` runs): "equal",
        /// or the differences; nil for the checker and in older reports.
        public var sourceCheck: SourceCheck?

        public init(strategy: String, targetBytes: Int64, storeBytes: Int64, rounds: [Round]) {
            self.strategy = strategy
            self.targetBytes = targetBytes
            self.storeBytes = storeBytes
            self.rounds = rounds
            wallSeconds = Spread(rounds.map(\.wallSeconds))
            cpuSeconds = Spread(rounds.map(\.cpuSeconds))
            peakRSSBytes = Spread(rounds.map { Double($0.peakRSSBytes) })
            waitMaxRSSBytes = Spread(rounds.map { Double($0.waitMaxRSSBytes) })
            let highwaters = rounds.compactMap { $0.child.map { Double($0.sqliteMemoryHighwater) } }
            sqliteMemoryHighwater = highwaters.isEmpty ? nil : Spread(highwaters)
            resultBytes = rounds.last?.resultBytes
            details = rounds.last?.child?.details ?? [:]
        }
    }
}

/// A strategy's output compared with its source, as `lifeboat check BACKUP --against STORE` would.
public struct SourceCheck: Codable, Sendable, Equatable {
    public var equal: Bool
    /// "equal", or the first differences ("missing-object Note: 3; ...").
    public var summary: String
    public var seconds: Double

    public init(equal: Bool, summary: String, seconds: Double) {
        self.equal = equal
        self.summary = summary
        self.seconds = seconds
    }
}

/// Median and range of one measurement over the rounds.
public struct Spread: Codable, Sendable, Equatable {
    public var median: Double
    public var min: Double
    public var max: Double

    public init(median: Double, min: Double, max: Double) {
        self.median = median
        self.min = min
        self.max = max
    }

    public init(_ values: [Double]) {
        let sorted = values.sorted()
        guard !sorted.isEmpty else {
            self.init(median: 0, min: 0, max: 0)
            return
        }
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        self.init(median: median, min: sorted[0], max: sorted[sorted.count - 1])
    }
}

extension BenchReport {
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// Reads a report, refusing a schema this build does not know.
    public static func decode(_ data: Data, from path: String = "report") throws -> BenchReport {
        struct Probe: Decodable { var schema: String? }
        let probe = try? JSONDecoder().decode(Probe.self, from: data)
        guard let schema = probe?.schema else { throw BenchError.badInput("\(path) is not a bench report (no \"schema\")") }
        guard schema == currentSchema else {
            throw BenchError.badInput("\(path) has schema \(schema); this build reads \(currentSchema)")
        }
        do {
            return try JSONDecoder().decode(BenchReport.self, from: data)
        } catch {
            throw BenchError.badInput("\(path) is not a valid \(currentSchema) report: \(error)")
        }
    }
}
