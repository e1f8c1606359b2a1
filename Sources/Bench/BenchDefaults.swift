import Foundation

/// Where the bench looks for things when the command line does not say.
public enum BenchDefaults {
    /// `.lifeboat-cache` in the repository root: the nearest directory up from `start` holding Package.swift,
    /// else `start` itself (the cache must not land in whatever directory a run happened to start in below the root).
    public static func cacheDirectory(from start: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) -> URL {
        var directory = start.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory.appendingPathComponent(".lifeboat-cache", isDirectory: true)
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        return start.standardizedFileURL.appendingPathComponent(".lifeboat-cache", isDirectory: true)
    }

    /// The running `lifeboat` binary, spawned again for each measured round.
    public static func lifeboatExecutable() -> String { ProcessSpawn.currentExecutable() }
}
