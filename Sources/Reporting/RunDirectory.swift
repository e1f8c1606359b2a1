import Foundation

/// `reports/<run-id>/` for one run, and the `reports/latest` link that points at the newest. In Reporting, not
/// Runner, so every writer of a report folder (runs, suites, matrices, walks, bench) shares it without the runner.
public struct RunDirectory: Sendable {
    public let id: String
    public let url: URL

    /// Creates `root/<id>`; the id is the UTC time plus a short random suffix, so runs sort by time.
    public static func create(root: URL, prefix: String = "") throws -> RunDirectory {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let id = prefix + formatter.string(from: Date()) + "-" + String(UUID().uuidString.prefix(6)).lowercased()
        let url = root.appendingPathComponent(id, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return RunDirectory(id: id, url: url)
    }

    /// A run directory that exists already (to read, or to judge again).
    public init(existing url: URL) {
        self.init(id: url.lastPathComponent, url: url)
    }

    init(id: String, url: URL) {
        self.id = id
        self.url = url
    }

    /// Points `root/latest` at this run (a relative symlink, replaced atomically by rename).
    public func markLatest() throws {
        let root = url.deletingLastPathComponent()
        let temporary = root.appendingPathComponent(".latest-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(atPath: temporary.path, withDestinationPath: id)
        guard rename(temporary.path, root.appendingPathComponent("latest").path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    public func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: url.appendingPathComponent(name), options: .atomic)
    }
}
