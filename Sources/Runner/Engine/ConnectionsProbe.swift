import Checks
import Foundation

/// For `connections-agree`: which of the app's processes still use the store a restore replaced.
enum ConnectionsProbe {
    /// For `connections-agree`: after a restore, every writer and reader that kept its connection open across it
    /// must be using the restored store. A restore that swaps in a new file (rename over, delete and re-create)
    /// leaves an open connection on the old inode: that process goes on reading and writing a store nobody will
    /// open again, while the others see the new one. Seen from outside through /proc/<pid>/fd: each open file of
    /// the store (main file, -wal, -shm) is compared, by device and inode, with what the path names now.
    static func measure(live: URL, children: ChildRegistry) -> ConnectionsMeasurement? {
        let kept = children.running { $0.name.hasPrefix("writer-") || $0.name.hasPrefix("reader-") }
        guard !kept.isEmpty else { return nil }
        let paths = [live.path, live.path + "-wal", live.path + "-shm"]
        var current: [String: (dev: UInt64, ino: UInt64)] = [:]
        for path in paths {
            var info = stat()
            if stat(path, &info) == 0 { current[path] = (UInt64(info.st_dev), UInt64(info.st_ino)) }
        }
        var stale: [String] = []
        var agreeing: [String] = []
        for child in kept {
            let fdDirectory = "/proc/\(child.pid)/fd"
            var mine: [String] = []
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: fdDirectory)) ?? [] {
                let link = fdDirectory + "/" + entry
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link) else { continue }
                let bare = target.hasSuffix(" (deleted)") ? String(target.dropLast(" (deleted)".count)) : target
                guard let path = paths.first(where: { $0 == bare }) else { continue }
                var info = stat()
                guard stat(link, &info) == 0 else { continue }
                let now = current[path]
                if now.map({ $0.dev == UInt64(info.st_dev) && $0.ino == UInt64(info.st_ino) }) != true {
                    let name = URL(fileURLWithPath: path).lastPathComponent
                    mine.append("\(name) inode \(info.st_ino)" + (target.hasSuffix(" (deleted)") ? " (deleted)" : "")
                                + (now.map { ", the path is now inode \($0.ino)" } ?? ", the path is gone"))
                }
            }
            if mine.isEmpty { agreeing.append(child.name) } else { stale.append("\(child.name) holds the old store: " + mine.joined(separator: "; ")) }
        }
        return ConnectionsMeasurement(agreeing: agreeing, stale: stale)
    }
}
