import Foundation

/// Reads and writes the files of externally stored binary values in `_EXTERNAL_DATA`.
///
/// A value is written to a temporary name, synced when asked, then renamed to its UUID name, so a crash never
/// leaves a half-written file under a name the database refers to.
public enum ExternalDataFiles {
    /// Writes a value to a new file in the store's `_EXTERNAL_DATA` (temporary name, synced when asked, renamed
    /// into place) and returns the column value that refers to it: 0x02, the file name, NUL.
    public static func store(_ data: Data, in files: StoreFiles, sync: Bool) throws -> Data {
        ExternalDataReference.external(fileName: try write(data, in: files, sync: sync)).encoded
    }

    static func write(_ data: Data, in files: StoreFiles, sync: Bool) throws -> String {
        let folder = files.externalDataFolder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = UUID().uuidString
        let target = files.externalFile(name)
        let temporary = folder.appendingPathComponent(".tmp-\(name)")
        try writeFile(data, to: temporary, sync: sync)
        guard rename(temporary.path, target.path) == 0 else {
            throw StoreError.io("cannot rename \(temporary.path): \(String(cString: strerror(errno)))")
        }
        if sync { try syncDirectory(folder) }
        return name
    }

    static func read(_ name: String, in files: StoreFiles, entity: String) throws -> Data {
        do {
            return try Data(contentsOf: files.externalFile(name))
        } catch {
            throw StoreError.missingExternalData(file: files.externalFile(name).path, entity: entity)
        }
    }

    static func writeFile(_ data: Data, to url: URL, sync: Bool) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StoreError.io("cannot create \(url.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw StoreError.io("cannot write \(url.path): \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
        if sync, fsync(fd) != 0 { throw StoreError.io("fsync \(url.path): \(String(cString: strerror(errno)))") }
    }

    static func syncDirectory(_ url: URL) throws {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.io("cannot open \(url.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        if fsync(fd) != 0 { throw StoreError.io("fsync \(url.path): \(String(cString: strerror(errno)))") }
    }
}
