// swift-tools-version:6.2
// Lifeboat: a property and stress test harness for backup and restore of Core Data-format SQLite stores.
import PackageDescription

/// Every Swift target builds in Swift 6 language mode with strict concurrency (the tools-version default).
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

/// The modules that read, hash and judge stores, and spawn the writers, build with `-O` even in a debug build:
/// the test suite and the drills spend most of their CPU reading stores to judge them, where a debug build's
/// retain/release and generic lookups were 41% of the samples (docs/performance.md, "The test suite").
/// `LIFEBOAT_OPTIMIZE=0` turns it off (to step through them in a debugger, or to use this package as a versioned
/// dependency, which SwiftPM refuses while a target has unsafe flags).
let hot: [SwiftSetting] = strict + (Context.environment["LIFEBOAT_OPTIMIZE"] == "0" ? [] : [.unsafeFlags(["-O"])])

let package = Package(
    name: "Lifeboat",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "lifeboat", targets: ["lifeboat"]),
        .executable(name: "faultfs", targets: ["faultfs"]),
        .library(name: "StoreModel", targets: ["StoreModel"]),
        .library(name: "Strategies", targets: ["Strategies"]),
        .library(name: "StoreCheck", targets: ["StoreCheck"]),
        .library(name: "FaultFS", targets: ["FaultFS"]),
        .library(name: "FaultVocabulary", targets: ["FaultVocabulary"]),
        // Preloaded into children on a FaultFS volume: their sync(2)/syncfs(2) become an acknowledged sync-all.
        .library(name: "LifeboatSyncShim", type: .dynamic, targets: ["CLifeboatSyncShim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // C shims (swift-nio style: one C target per system concern).
        .systemLibrary(name: "CFuse3", pkgConfig: "fuse3", providers: [.apt(["libfuse3-dev"])]),
        .target(name: "CLifeboatSys"),
        .target(name: "CLifeboatSyncShim"),

        // The one way Lifeboat starts and waits for child processes (posix_spawn, wait4, process groups).
        .target(name: "ChildProcesses", dependencies: ["CLifeboatSys"], swiftSettings: hot),
        // The one seeded generator (SplitMix64) every seeded choice draws from.
        .target(name: "SeededRandomness", swiftSettings: strict),
        // The one fault grammar: typed fault actions, triggers, crash modes, hold work, op and errno names, their
        // text (scenario files, CLI flags, repros) and their control-protocol JSON. No FUSE: Scenario reads it too.
        .target(name: "FaultVocabulary", swiftSettings: strict),

        // The system under test: Core Data's SQLite layout and coordinator operations.
        .target(
            name: "StoreModel",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                "CLifeboatSys",
                "SeededRandomness",
            ],
            swiftSettings: strict),
        // Layout-driven verification and comparison of stores (`lifeboat check`).
        .target(
            name: "StoreCheck",
            dependencies: [
                "StoreModel",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict),
        // Backup and restore strategies, each a small type behind one protocol.
        .target(
            name: "Strategies",
            dependencies: [
                "StoreModel",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CLifeboatSys",
                "ChildProcesses",
            ],
            swiftSettings: strict),
        // Scenario files: the model of a drill and its YAML reader (errors at file:line:column).
        .target(
            name: "Scenario",
            dependencies: ["Strategies", "Checks", "FaultVocabulary", .product(name: "Yams", package: "Yams")],
            swiftSettings: strict),
        // Writer processes and the history they record: the oracle.
        .target(
            name: "Workload",
            dependencies: ["StoreModel", "SeededRandomness", .product(name: "Crypto", package: "swift-crypto"), .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: hot),
        // Invariants: the oracle over writer histories and one small function per invariant.
        .target(
            name: "Checks",
            dependencies: ["StoreModel", "StoreCheck", "Workload", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: hot),
        // Reports: JSON, Markdown, self-contained HTML with SVG, JUnit XML; pure functions of a run result.
        .target(
            name: "Reporting",
            dependencies: ["Checks", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict),
        // Drills: scratch stores, strategies run against them, verdicts and the run directory.
        .target(
            name: "Runner",
            dependencies: ["StoreModel", "StoreCheck", "Strategies", "Scenario", "Workload", "Checks", "Reporting", "FaultFS", "FaultVocabulary",
                           "ChildProcesses", "SeededRandomness", "CLifeboatSys", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict),
        // Bug hunting: seeded variations of a scenario, greedy shrinking, replay checks.
        .target(
            name: "Explore",
            dependencies: ["Runner", "Scenario", "Checks", "Reporting", "StoreModel", "StoreCheck", "Workload", "FaultFS", "FaultVocabulary",
                           "SeededRandomness", .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")],
            swiftSettings: strict),
        // The fault-injecting FUSE file system (daemon, control protocol, client API).
        .target(
            name: "FaultFS",
            dependencies: ["CFuse3", "CLifeboatSys", "ChildProcesses", "SeededRandomness", "FaultVocabulary"],
            swiftSettings: strict),
        .executableTarget(name: "faultfs", dependencies: ["FaultFS"], swiftSettings: strict),
        // `lifeboat bench`: cached stores of given sizes, one child process per round, reports and baselines.
        .target(
            name: "Bench",
            dependencies: ["StoreModel", "StoreCheck", "Strategies", "Reporting", "Scenario", "FaultFS", "ChildProcesses",
                           .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")],
            swiftSettings: strict),

        // The command line: thin, testable commands in a library, a two-line main.
        .target(
            name: "LifeboatCLI",
            dependencies: [
                "StoreModel", "StoreCheck", "Strategies", "Runner", "Explore", "Scenario", "Workload", "Reporting", "FaultFS", "FaultVocabulary",
                "CLifeboatSys", "Bench", "Checks", "ChildProcesses",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict),
        .executableTarget(name: "lifeboat", dependencies: ["LifeboatCLI"], swiftSettings: strict),

        // Scratch directories and open-app helpers shared by the test targets.
        .target(
            name: "LifeboatTestSupport",
            dependencies: ["StoreModel", "SeededRandomness", .product(name: "Crypto", package: "swift-crypto")],
            path: "Tests/LifeboatTestSupport",
            swiftSettings: strict),
        .testTarget(
            name: "StoreModelTests",
            dependencies: ["LifeboatTestSupport", "StoreModel", .product(name: "PropertyBased", package: "swift-property-based"),
                           .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict),
        .testTarget(
            name: "ChecksTests",
            dependencies: ["LifeboatTestSupport", "Checks", "StoreCheck", "StoreModel", "Workload",
                           .product(name: "PropertyBased", package: "swift-property-based"), .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict),
        .testTarget(
            name: "StoreCheckTests",
            dependencies: ["LifeboatTestSupport", "StoreCheck", "StoreModel", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict),
        .testTarget(
            name: "StrategiesTests",
            dependencies: ["LifeboatTestSupport", "Strategies", "StoreModel", "StoreCheck", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict),
        .testTarget(
            name: "FaultFSTests",
            dependencies: ["FaultFS", "ChildProcesses", "SeededRandomness", "LifeboatTestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
                           .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict),
        .testTarget(
            name: "FaultVocabularyTests",
            dependencies: ["FaultVocabulary"],
            swiftSettings: strict),
        .testTarget(
            name: "ChildProcessesTests",
            dependencies: ["ChildProcesses"],
            swiftSettings: strict),
        .testTarget(
            name: "ScenarioTests",
            dependencies: ["LifeboatTestSupport", "Scenario", "FaultVocabulary", .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict),
        .testTarget(
            name: "RunnerTests",
            dependencies: ["LifeboatTestSupport", "Runner", "Scenario", "Reporting", "Checks", "Explore", "ChildProcesses", "FaultFS", "FaultVocabulary",
                           .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict),
        .testTarget(
            name: "LifeboatCLITests",
            dependencies: ["LifeboatTestSupport", "LifeboatCLI", "StoreModel", "StoreCheck", "Strategies", "Runner", "ChildProcesses", "Explore", "Reporting", "Checks",
                           .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "PropertyBased", package: "swift-property-based")],
            swiftSettings: strict),
        .testTarget(
            name: "BenchTests",
            dependencies: ["Bench", "LifeboatCLI", "LifeboatTestSupport", "StoreModel"],
            swiftSettings: strict),
    ]
)
