import Foundation

/// Small helpers over `SpawnedChild` for the common "run it and read what it said" case.
public enum ChildProcesses {
    /// A finished child with its merged output.
    public struct Outcome: Sendable {
        public var termination: Termination
        public var output: String
    }

    /// Runs `spec` to completion with its output in a temporary file (merged stdout and stderr). `timeout`/`stop`
    /// as in `SpawnedChild.wait`. The child stays in this process's group unless the spec says otherwise, so a
    /// harness that kills this process's group (a crash) reaches it too.
    public static func run(_ spec: ChildSpec, timeout: Double? = nil, stop: (() -> Bool)? = nil) throws(SpawnError) -> Outcome {
        var spec = spec
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("lifeboat-child-\(UUID().uuidString).log").path
        defer { unlink(log) }
        spec.output = .file(log, append: false)
        let child = try SpawnedChild.start(spec)
        let termination = child.wait(timeout: timeout, stop: stop)
        return Outcome(termination: termination, output: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
    }

    /// The first executable called `name` on PATH (then the usual system directories).
    public static func which(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"] {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
