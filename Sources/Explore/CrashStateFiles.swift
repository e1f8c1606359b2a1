import FaultFS
import Foundation

/// The store's files in a crash state as a file system holds them: names bound to inodes, and each inode's bytes.
/// A name and the bytes behind it become durable apart (an fsync of a file makes its data durable, an fsync of its
/// directory its name), so a file deleted and made again under the same name (a -wal removed at the last close and
/// created by the next open, a restore that removes the store and writes a new one) must not mix the two: the old
/// file's unlink made durable after the new file's data is the removal of the old file, not of the new one.
/// Operations carry the backing inode (`OpRecord.ino`); the files at the log mark get placeholder inodes that
/// the first operation naming their path with an inode not seen yet adopts.
struct CrashStateFiles {
    private(set) var names: [String: UInt64] = [:]
    private(set) var contents: [UInt64: Data] = [:]
    private var placeholders: Set<UInt64> = []

    init(_ start: [String: Data]) {
        for (index, (path, data)) in start.sorted(by: { $0.key < $1.key }).enumerated() {
            let placeholder = UInt64.max - UInt64(index)
            names[path] = placeholder
            contents[placeholder] = data
            placeholders.insert(placeholder)
        }
    }

    /// The files by name, as they would be read (a name whose inode has no bytes is an empty file).
    var view: [String: Data] { names.mapValues { contents[$0] ?? Data() } }

    /// The inode `record` concerns: its own, after a file of the mark at its path adopts it, or (for a record
    /// without one) the inode at its path.
    mutating func inode(of record: OpRecord, path: String) -> UInt64? {
        guard let ino = record.ino, ino != 0 else { return names[path] }
        if contents[ino] == nil, !names.values.contains(ino), let current = names[path], placeholders.contains(current) {
            placeholders.remove(current)
            contents[ino] = contents.removeValue(forKey: current)
            names[path] = ino
        }
        return ino
    }

    /// The bytes of `inode`, to change in place (the dictionary's own storage: no copy of a file per write).
    mutating func modify(_ inode: UInt64, _ body: (inout Data) -> Void) {
        body(&contents[inode, default: Data()])
    }

    mutating func create(_ path: String, inode: UInt64) {
        names[path] = inode
        if contents[inode] == nil { contents[inode] = Data() }
    }

    /// Removes `path` when it still names `inode` (nil: whatever it names).
    mutating func unlink(_ path: String, inode: UInt64?) {
        guard let current = names[path], inode == nil || current == inode else { return }
        names[path] = nil
    }

    mutating func rename(_ path: String, to target: String, inode: UInt64?) {
        let moved = names.removeValue(forKey: path) ?? inode
        names[target] = moved
    }

    /// Whether writing `record` over the files by name is the same as applying it to its inode: the name is
    /// bound to the inode the record concerns (or the record names none).
    func bindsByName(_ record: OpRecord) -> Bool {
        guard let path = record.path, let ino = record.ino, ino != 0 else { return true }
        guard let current = names[path] else { return false }
        return current == ino || (placeholders.contains(current) && contents[ino] == nil && !names.values.contains(ino))
    }
}
