import Foundation

/// Finds the `lifeboat` binary that child processes run: `LIFEBOAT_EXECUTABLE`, this process when it is
/// lifeboat, or the one next to this process (the test runner sits beside it in `.build/debug`).
public enum LifeboatExecutable {
    public static func locate() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["LIFEBOAT_EXECUTABLE"], FileManager.default.isExecutableFile(atPath: path) {
            return URL(fileURLWithPath: path)
        }
        let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        if me.lastPathComponent == "lifeboat" { return me }
        var directory = me.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("lifeboat")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw RunError.environment("cannot find the lifeboat executable (build it with `swift build`, or set LIFEBOAT_EXECUTABLE)")
    }
}
