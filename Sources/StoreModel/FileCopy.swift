import CLifeboatSys
import Foundation

/// Copies files the way the coordinator's replace does on Linux: a FICLONE reflink where the file system has
/// clones (XFS reflink=1, btrfs; the analogue of APFS clones), else copy_file_range over the file's data extents
/// (holes stay holes, as APFS clones and `cp` keep them), else read/write.
public enum FileCopy {
    public enum Method: String, Sendable, Codable { case clone, copyFileRange = "copy_file_range", readWrite = "read-write" }

    /// The unit a `hold` counts in: SQLite's default page size, so "page N" means the same for a file copy as
    /// for the backup API on a default store.
    public static let holdPageSize = 4096

    /// Copies `source` to `destination` (created or truncated) and returns how. `allowClone: false` forces a copy;
    /// `plain: true` forces read/write in 64 KiB pieces, as `cat a > b` does. With `hold`, the copy goes in
    /// 4 KiB pieces and stops dead after `hold.page` of them (the runner's crash point).
    @discardableResult
    public static func copy(_ source: URL, to destination: URL, allowClone: Bool = true, sync: Bool = true, plain: Bool = false,
                            hold: SQLiteBackup.Hold? = nil) throws -> Method {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw StoreError.io("cannot open \(source.path): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let output = lb_open(destination.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw StoreError.io("cannot create \(destination.path): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw StoreError.io("cannot stat \(source.path)") }
        var method = Method.readWrite
        if let hold {
            let total = (Int(info.st_size) + holdPageSize - 1) / holdPageSize
            try readWriteCopy(input, output, source: source, chunk: holdPageSize) { pages in
                if pages >= hold.page { SQLiteBackup.holdForever(hold, copied: pages, total: total) }
            }
        } else if plain {
            try readWriteCopy(input, output, source: source, chunk: 64 * 1024)
        } else if allowClone, lb_ficlone(output, input) == 0 {
            method = .clone
        } else if lb_copy_file_range_all(input, output, Int64(info.st_size)) == Int64(info.st_size) {
            method = .copyFileRange
        } else {
            guard ftruncate(output, 0) == 0, lseek(input, 0, SEEK_SET) == 0 else { throw StoreError.io("cannot rewind copy of \(source.path)") }
            try readWriteCopy(input, output, source: source)
        }
        if sync, fsync(output) != 0 { throw StoreError.io("fsync \(destination.path): \(String(cString: strerror(errno)))") }
        return method
    }

    /// With `sparse`, a chunk of zeros is skipped (a hole) rather than written: a store with a gigabyte of free
    /// pages (`FreePages`) copies in the time its data takes. The copy reads the same either way.
    static func readWriteCopy(_ input: Int32, _ output: Int32, source: URL, chunk: Int = 1 << 20, sparse: Bool = false,
                              afterChunk: (Int) -> Void = { _ in }) throws {
        var buffer = [UInt8](repeating: 0, count: chunk)
        let zeros = [UInt8](repeating: 0, count: sparse ? chunk : 0)
        var chunks = 0
        var total: off_t = 0
        while true {
            let count = read(input, &buffer, buffer.count)
            if count == 0 {
                if sparse, ftruncate(output, total) != 0 {
                    throw StoreError.io("cannot size copy of \(source.path): \(String(cString: strerror(errno)))")
                }
                return
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw StoreError.io("cannot read \(source.path): \(String(cString: strerror(errno)))")
            }
            total += off_t(count)
            if sparse, memcmp(buffer, zeros, count) == 0 {
                guard lseek(output, off_t(count), SEEK_CUR) >= 0 else {
                    throw StoreError.io("cannot seek in copy of \(source.path): \(String(cString: strerror(errno)))")
                }
                chunks += 1
                afterChunk(chunks)
                continue
            }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { write(output, $0.baseAddress! + offset, count - offset) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw StoreError.io("cannot write copy of \(source.path): \(String(cString: strerror(errno)))")
                }
                offset += written
            }
            chunks += 1
            afterChunk(chunks)
        }
    }

    /// fsync of a directory: makes the entries created, renamed or removed in it durable (a new file's data can
    /// be synced and still vanish after a power failure if the directory that names it was not).
    public static func syncDirectory(_ url: URL) throws {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.io("cannot open directory \(url.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw StoreError.io("fsync of directory \(url.path): \(String(cString: strerror(errno)))") }
    }

    /// Copies a folder's regular files (not recursive: `_EXTERNAL_DATA` is flat) into a fresh folder that then
    /// replaces `destination` by rename, so a failed copy never leaves a half-filled destination folder in place.
    /// `durable` also syncs the new folder before the rename and the folders above it after, so the copy survives
    /// a power failure once this returns; `durable: false` is `cp -R` (file data synced, names not).
    @discardableResult
    public static func replaceFolder(_ destination: URL, withCopyOf source: URL, allowClone: Bool = true, durable: Bool = true) throws -> Int {
        let manager = FileManager.default
        let staging = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).lifeboat-tmp-\(UUID().uuidString.prefix(8))")
        try manager.createDirectory(at: staging, withIntermediateDirectories: true)
        var copied: [URL] = []
        var allCloned = true
        do {
            let names = (try? manager.contentsOfDirectory(atPath: source.path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                var info = stat()
                guard stat(source.appendingPathComponent(name).path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                // Data is synced below, all files at once (see syncAll).
                let method = try copy(source.appendingPathComponent(name), to: staging.appendingPathComponent(name), allowClone: allowClone, sync: false)
                allCloned = allCloned && method == .clone
                copied.append(staging.appendingPathComponent(name))
            }
            if allCloned { try syncClonesAll(copied) } else { try syncAll(copied) }
            if durable { try syncDirectory(staging) }
            if manager.fileExists(atPath: destination.path) { try manager.removeItem(at: destination) }
            try manager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.moveItem(at: staging, to: destination)
            if durable {
                // The support folder may be new too: sync both levels that name something new.
                try syncDirectory(destination.deletingLastPathComponent())
                try syncDirectory(destination.deletingLastPathComponent().deletingLastPathComponent())
            }
        } catch {
            try? manager.removeItem(at: staging)
            throw error
        }
        return copied.count
    }
}
