import Foundation
import StoreModel

/// `backup: migrate` with `coordinator: app`: the app itself calls `migratePersistentStore` on the coordinator its
/// saves go through, between two of its transactions, as the code seeds 000 and 001 warn against (Tom Harrington,
/// "Backing up Core Data Stores"; Ole Begemann, "How to make a copy of a Core Data SQLite database"): "After
/// invocation of this method, the specified store is removed from the coordinator", and, in seed 000's words,
/// "It also adds the newly-migrated store to the coordinator. So now the store is using the new copy instead of
/// the old one." The writer's later saves therefore go to the backup.
///
/// The runner asks through a request file (`request`), which the writer looks for before each transaction, and
/// reads the answer from `request + ".done"` (one JSON line, `Response`).
public enum InAppMigrate {
    public struct Request: Sendable, Codable {
        public var destination: String
        /// `saves_after_migrate: fail`: after the migrate the app removes the copy from its coordinator too (as
        /// backup code that treats the copy as a file it is done with), so the coordinator holds no store and
        /// every later save fails (`StoreError.noPersistentStores`).
        public var removeCopy: Bool?
        public init(destination: String, removeCopy: Bool = false) {
            self.destination = destination
            self.removeCopy = removeCopy ? true : nil
        }
    }

    public struct Response: Sendable, Codable {
        public var start: Double
        public var end: Double
        public var error: String?
        public var objects: Int
        public var bytesLoaded: Int
    }

    /// Serves a pending request, if any: migrates `store` on `coordinator` to the requested destination and
    /// returns the store the coordinator holds afterwards (the copy; `store` itself when the migrate failed; nil
    /// when the request asked the app to remove the copy as well).
    static func serve(_ path: String?, store: PersistentStore, coordinator: PersistentStoreCoordinator, options: StoreOptions,
                      now: () -> Double) throws -> PersistentStore? {
        guard let path, FileManager.default.fileExists(atPath: path) else { return store }
        let request = try JSONDecoder().decode(Request.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        try FileManager.default.removeItem(atPath: path)
        let start = now()
        var response = Response(start: start, end: start, error: nil, objects: 0, bytesLoaded: 0)
        var current: PersistentStore? = store
        do {
            let destination = URL(fileURLWithPath: request.destination)
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            let (copy, report) = try coordinator.migrate(store, to: destination, options: options)
            (response.objects, response.bytesLoaded) = (report.objects, report.bytesLoaded)
            current = copy
            if request.removeCopy == true {
                try coordinator.remove(copy)
                current = nil
            }
        } catch {
            response.error = "\(error)"
        }
        response.end = now()
        try (String(decoding: try JSONEncoder().encode(response), as: UTF8.self) + "\n")
            .write(toFile: path + ".done", atomically: true, encoding: .utf8)
        return current
    }
}
