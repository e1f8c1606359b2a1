import FaultFS
import Foundation
import Runner

/// The state directory as an overlay on the durable files: the durable files are written once per change of
/// what is durable, each state's kept writes are then written on top of them in place (a pwrite of each payload,
/// an ftruncate for a truncate), and undone afterwards by writing back the durable bytes of the ranges they
/// touched. A state then costs what its pending writes weigh (a transaction's WAL frames) instead of a copy of
/// every file in memory and on disk (a `-wal` of megabytes, for every one of a point's variants).
///
/// Only states whose kept operations are data operations on the tracked files go this way; a state that keeps a
/// create, unlink or rename is written whole (`CheckContext.materialize`), and the directory is rewritten from
/// the durable files before the next overlay. Reading the state (SQLite read-only, the verifier's own copy)
/// writes nothing but a `-shm`, which is removed before each state.
struct CrashStateOverlay {
    let directory: URL
    /// Which durable files the directory holds (the digest of the operations that made them), nil when unknown.
    private var shown: Data?
    /// Per file changed by the current state: the byte ranges written and the smallest size it was cut to.
    private var touched: [String: (ranges: [Range<Int>], lowest: Int)] = [:]

    init(directory: URL) { self.directory = directory }

    func url(_ path: String) -> URL { directory.appendingPathComponent(String(path.dropFirst())) }

    /// Forgets what the directory holds (it was written whole for a state that could not be overlaid).
    mutating func invalidate() { shown = nil }

    /// Whether `kept` can be applied in place: data operations only (entry operations change which files exist).
    static func applies(to kept: [OpRecord]) -> Bool {
        kept.allSatisfy { $0.op.isData }
    }

    /// Makes the directory hold exactly `durable` (identified by `version`), writing it whole only when it changed.
    mutating func show(_ durable: [String: Data], version: Data, databaseName: String) throws {
        guard shown != version else {
            try undo(durable)
            unlink(url(databaseName).path + "-shm")
            return
        }
        for suffix in ["", "-wal", "-journal", "-shm"] { unlink(url(databaseName).path + suffix) }
        for (path, data) in durable { try data.write(to: url(path)) }
        shown = version
        touched = [:]
    }

    /// Writes the kept data operations over the durable files, as `CrashStateEnumerator.apply` does in memory.
    mutating func apply(_ kept: [OpRecord], tornCut: Int?, durable: [String: Data], enumerator: CrashStateEnumerator,
                        payloads: inout CrashStatePayloads) throws {
        for (index, record) in kept.enumerated() {
            guard record.result >= 0, let path = record.path, enumerator.tracked(record) else { continue }
            let cut = index == kept.count - 1 ? tornCut : nil
            switch record.op {
            case .write, .copyFileRange:
                guard let offset = record.offset, var payload = try payloads.payload(of: record) else { continue }
                if let cut { payload = payload.prefix(cut) + Data(count: max(0, payload.count - cut)) }
                try write(payload, at: Int(offset), path: path, durable: durable)
            case .truncate:
                guard let size = record.size else { continue }
                try resize(path, to: Int(size), onlyGrowing: false, durable: durable)
            case .fallocate:
                guard let size = record.size else { continue }
                try resize(path, to: Int(size), onlyGrowing: true, durable: durable)
            default:
                continue
            }
        }
    }

    /// Puts the durable bytes back where the last state changed them.
    private mutating func undo(_ durable: [String: Data]) throws {
        for (path, change) in touched {
            guard let original = durable[path] else {
                unlink(url(path).path)
                continue
            }
            let fd = try open(path, creating: false)
            defer { close(fd) }
            guard ftruncate(fd, off_t(original.count)) == 0 else { throw posixError("ftruncate", path) }
            var ranges = change.ranges
            if change.lowest < original.count { ranges.append(change.lowest..<original.count) }
            for range in ranges {
                let clipped = range.clamped(to: 0..<original.count)
                guard !clipped.isEmpty else { continue }
                try pwriteAll(fd, original[original.startIndex + clipped.lowerBound..<original.startIndex + clipped.upperBound], at: clipped.lowerBound, path)
            }
        }
        touched = [:]
    }

    private mutating func note(_ path: String, range: Range<Int>? = nil, size: Int? = nil, durable: [String: Data]) {
        var change = touched[path] ?? (ranges: [], lowest: durable[path]?.count ?? 0)
        if let range { change.ranges.append(range) }
        if let size { change.lowest = min(change.lowest, size) }
        touched[path] = change
    }

    private mutating func write(_ payload: Data, at offset: Int, path: String, durable: [String: Data]) throws {
        note(path, range: offset..<offset + payload.count, durable: durable)
        let fd = try open(path, creating: true)
        defer { close(fd) }
        try pwriteAll(fd, payload, at: offset, path)
    }

    private mutating func resize(_ path: String, to size: Int, onlyGrowing: Bool, durable: [String: Data]) throws {
        note(path, size: size, durable: durable)
        let fd = try open(path, creating: true)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw posixError("fstat", path) }
        if onlyGrowing, Int(info.st_size) >= size { return }
        guard ftruncate(fd, off_t(size)) == 0 else { throw posixError("ftruncate", path) }
    }

    private func open(_ path: String, creating: Bool) throws -> Int32 {
        let fd = creating ? Glibc.open(url(path).path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644) : Glibc.open(url(path).path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw posixError("open", path) }
        return fd
    }

    private func pwriteAll(_ fd: Int32, _ bytes: Data, at offset: Int, _ path: String) throws {
        try bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let count = pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if count < 0 {
                    if errno == EINTR { continue }
                    throw posixError("pwrite", path)
                }
                done += count
            }
        }
    }

    private func posixError(_ call: String, _ path: String) -> RunError {
        .environment("cannot write a crash state: \(call) \(url(path).path): \(String(cString: strerror(errno)))")
    }
}
