import Foundation

/// The one JSON line `lifeboat bench-child` prints: what the child can only see from the inside (SQLite's own
/// allocator highwater, its /proc/self/io counters, the strategy's outcome). The parent adds what the kernel
/// reports about the child from the outside (wall time, CPU time, peak RSS) when it reaps it.
public struct ChildReport: Codable, Sendable, Equatable {
    /// "backup" or "allocate".
    public var mode: String
    public var strategy: String?
    /// Seconds the operation took inside the child (start-up excluded).
    public var seconds: Double
    /// `sqlite3_memory_highwater(0)`: the most memory SQLite's allocator held at once.
    public var sqliteMemoryHighwater: Int64
    public var io: ProcIO?
    /// VmHWM of /proc/self/status just before printing: the peak resident set of this process's own address
    /// space since exec. Unlike wait4's ru_maxrss it carries no floor from the parent (see `ProcessSpawn`).
    public var highWaterRSSBytes: Int64?
    /// The strategy outcome's details (usedClone, objects, restarts, ...).
    public var details: [String: String]

    public init(mode: String, strategy: String?, seconds: Double, sqliteMemoryHighwater: Int64, io: ProcIO?,
                highWaterRSSBytes: Int64? = ProcStatus.current("VmHWM"), details: [String: String]) {
        self.mode = mode
        self.strategy = strategy
        self.seconds = seconds
        self.sqliteMemoryHighwater = sqliteMemoryHighwater
        self.io = io
        self.highWaterRSSBytes = highWaterRSSBytes
        self.details = details
    }

    /// The line as printed (compact, keys sorted).
    public func line() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// The last line of a child's output that decodes as a report.
    public static func parse(_ output: String) -> ChildReport? {
        for line in output.split(separator: "\n").reversed() where line.hasPrefix("{") {
            if let report = try? JSONDecoder().decode(ChildReport.self, from: Data(line.utf8)) { return report }
        }
        return nil
    }
}

/// Fields of `/proc/self/status` given in kB (VmHWM, VmRSS), in bytes.
public enum ProcStatus {
    /// A field of this process's /proc status (or of `pid`'s), in bytes.
    public static func current(_ field: String, pid: pid_t? = nil) -> Int64? {
        let path = pid.map { "/proc/\($0)/status" } ?? "/proc/self/status"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let number = line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ").first
            return number.flatMap { Int64($0) }.map { $0 * 1024 }
        }
        return nil
    }
}

/// `/proc/self/io`: bytes this process caused to be read from and written to storage (read_bytes, write_bytes)
/// and bytes passed through read/write calls, cache hits included (rchar, wchar).
public struct ProcIO: Codable, Sendable, Equatable {
    public var rchar: Int64
    public var wchar: Int64
    public var readBytes: Int64
    public var writeBytes: Int64

    public init(rchar: Int64, wchar: Int64, readBytes: Int64, writeBytes: Int64) {
        self.rchar = rchar
        self.wchar = wchar
        self.readBytes = readBytes
        self.writeBytes = writeBytes
    }

    /// This process's counters, or nil where the kernel does not keep them.
    public static func current() -> ProcIO? {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
        return parse(text)
    }

    public static func parse(_ text: String) -> ProcIO? {
        var values: [String: Int64] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, let value = Int64(parts[1].trimmingCharacters(in: .whitespaces)) { values[String(parts[0])] = value }
        }
        guard let rchar = values["rchar"], let wchar = values["wchar"], let read = values["read_bytes"],
              let write = values["write_bytes"] else { return nil }
        return ProcIO(rchar: rchar, wchar: wchar, readBytes: read, writeBytes: write)
    }
}
