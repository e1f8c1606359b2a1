import Foundation

/// Reads and writes the files of externally stored binary values in `_EXTERNAL_DATA`, the way Core Data does.
///
/// CoreData.framework (iOS 26.1, decompiled: `_PFExternalReferenceData`, the save path) writes a new value to
/// `<name>.interim` (`O_CREAT|O_EXCL|O_WRONLY`, `pwrite` in 256 KiB pieces, `close`) and renames it to its UUID
/// name before the transaction that refers to it commits, with no `fsync` on this path: a crash after the commit
/// can leave a row whose file never reached the disk. `StoreOptions.syncExternalFiles` adds the fsyncs (file and
/// folder) for an app, or a future OS version, that does sync. A file that is missing when a row is read reads
/// as nil, with no error (docs/fidelity.md).
public enum ExternalDataFiles {
    /// Core Data writes external files in pieces of this size.
    static let writeChunk = 256 * 1024

    /// Writes a value to a new file in the store's `_EXTERNAL_DATA` (interim name, synced when asked, renamed
    /// into place) and returns the column value that refers to it: 0x02, the file name, NUL.
    public static func store(_ data: Data, in files: StoreFiles, sync: Bool) throws -> Data {
        ExternalDataReference.external(fileName: try write(data, in: files, sync: sync)).encoded
    }

    static func write(_ data: Data, in files: StoreFiles, sync: Bool) throws -> String {
        let folder = files.externalDataFolder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = UUID().uuidString
        let target = files.externalFile(name)
        let interim = folder.appendingPathComponent("\(name).interim")
        try writeInterim(data, to: interim, sync: sync)
        guard rename(interim.path, target.path) == 0 else {
            let code = errno
            unlink(interim.path)
            throw StoreError.io("cannot rename \(interim.path): \(String(cString: strerror(code)))")
        }
        if sync { try syncDirectory(folder) }
        return name
    }

    /// The value in the file `name`, or nil when the file is missing or unreadable: Core Data materialises such a
    /// row with the attribute set to nil and raises nothing (its exception 134185 is for a file that vanishes
    /// after the row was read, which this model does not keep apart).
    static func read(_ name: String, in files: StoreFiles) -> Data? {
        try? LayoutObjects.readRegular(files.externalFile(name))
    }

    /// Writes the interim file. A failure to create or write it is `StoreError.interimFileFailed`: Core Data
    /// raises an NSInternalInconsistencyException there ("Can't create externalDataReference interim file : 28"
    /// for ENOSPC) and the app aborts; writers end their process on it.
    static func writeInterim(_ data: Data, to url: URL, sync: Bool) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw StoreError.interimFileFailed(url.path, errno: errno) }
        var failure: Int32?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let length = min(writeChunk, buffer.count - offset)
                let written = pwrite(fd, buffer.baseAddress! + offset, length, off_t(offset))
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == nil, sync, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == nil { failure = errno }
        if let failure {
            unlink(url.path)
            throw StoreError.interimFileFailed(url.path, errno: failure)
        }
    }

    static func syncDirectory(_ url: URL) throws {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.io("cannot open \(url.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        if fsync(fd) != 0 { throw StoreError.io("fsync \(url.path): \(String(cString: strerror(errno)))") }
    }
}
