import Foundation
import StoreCheck
import StoreModel

/// The run's measurements of stores: each reads a store on a recovered private copy (`StoreSnapshot`), so what
/// is measured is what the next launch of the app would find, and nothing it judges is changed. Event handlers
/// call these and put what they return into the run record; the judge never reads a store.
public enum Measure {
    /// Every finding is kept (a person's report keeps 50 of a kind): the judge matches them one by one, a
    /// restored store's missing files against those its backup lacked.
    static let allFindings = Int.max

    /// A store's checker report, and its objects when `state` (a verdict needs them).
    public static func store(_ url: URL, label: String, state: Bool) -> StoreMeasurement {
        StoreMeasurement(label: label, path: url.path, state: state ? Measured.of { try StoreState.read(url) } : nil, checks: checks(url))
    }

    /// A store's checker report, every finding kept.
    public static func checks(_ url: URL) -> Measured<CheckReport> {
        Measured.of { try StoreVerifier.verify(url, limitPerKind: allFindings) }
    }

    /// A store compared with the one it should equal (`StoreComparison`), every finding kept.
    public static func comparison(_ url: URL, against expected: URL) -> Measured<CheckReport> {
        Measured.of { try StoreComparison.compare(url, against: expected, limitPerKind: allFindings) }
    }

    /// The app's first open of a restored store with `model` and the options it passes (its lightweight
    /// migration where allowed), on a recovered private copy: how many objects it reads. A user's own store (no
    /// model of ours) opens when it reads whole. As Core Data's `addPersistentStore` does, a missing store is
    /// created, empty. With `recovery: "move-aside"` the app follows seed 004's recovery (Bart Jacobs, Core Data
    /// migrations): a store that will not open goes into `Incompatible/` and a new, empty store takes its place.
    public static func open(_ url: URL, model: ManagedObjectModel, options: StoreOptions, recovery: String) -> Measured<OpenedStore> {
        guard FileManager.default.fileExists(atPath: url.path) else {
            return Measured(OpenedStore(objects: 0, how: "no store at \(url.lastPathComponent): addPersistentStore creates a new one",
                                        evidence: ["no store at \(url.path) after the restore; Core Data's addPersistentStore creates a new, empty store there"]))
        }
        return Measured.of {
            try StoreState.onRecoveredCopy(of: url) { copy -> OpenedStore in
                if try StoreKind.of(copy) == .layout {
                    try StoreKind.requireReadable(copy)
                    return OpenedStore(objects: try StoreState.readLayout(copy).notes.count, how: "reads whole")
                }
                do {
                    let store = try PersistentStore(at: copy, model: model, options: options)
                    defer { try? store.close() }
                    return OpenedStore(objects: try model.entities.reduce(0) { $0 + (try store.count($1.name)) }, how: "opens with \(model.versionIdentifier)")
                } catch let error as StoreError where recovery == "move-aside" {
                    // The copy's files go aside, and the app adds a store at the same path: a new, empty one.
                    let aside = copy.deletingLastPathComponent().appendingPathComponent("Incompatible", isDirectory: true)
                    try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
                    for file in [copy, StoreFiles(copy).wal, StoreFiles(copy).shm] where FileManager.default.fileExists(atPath: file.path) {
                        try FileManager.default.moveItem(at: file, to: aside.appendingPathComponent(file.lastPathComponent))
                    }
                    let store = try PersistentStore(at: copy, model: model, options: options)
                    defer { try? store.close() }
                    return OpenedStore(objects: try model.entities.reduce(0) { $0 + (try store.count($1.name)) },
                                       how: "moved aside after \(error.code), a new store opens with \(model.versionIdentifier)",
                                       evidence: ["\(error)", "the app moved the store into Incompatible/ and added a new, empty store in its place (incompatible_store: move-aside)"])
                }
            }
        }
    }
}
