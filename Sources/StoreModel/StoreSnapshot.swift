import Foundation

/// A private copy of a store's SQLite files, taken so that reading the store changes nothing beside it.
///
/// Why a copy and not a read-only connection: SQLite opens a WAL database read-only only when it can use a
/// `-shm` beside it. Where no `-shm` exists it creates one (a new file in the user's folder), where one exists it
/// writes to it (rewriting a `-shm` another system wrote), and on a read-only folder or file system with no
/// `-shm` it refuses to open, or opens without the `-wal` and shows a store missing what the `-wal` holds.
/// `immutable=1` avoids the `-shm` but ignores the `-wal` altogether, which would hide committed transactions.
/// So the checker copies the database, its `-wal` and any `-journal` (never the `-shm`, which SQLite rebuilds
/// from the `-wal`) into a fresh directory of its own and opens the copy: the folder of the store is only ever
/// read, on a writable folder, a read-only folder and a read-only file system alike, and the verdict still
/// includes the `-wal`. The support folder is not copied: external data is read in place.
///
/// The harness's own checks (`Checks`) read every store they judge through a snapshot too, and open the copy
/// read-write so that SQLite recovers it (rolls back a hot journal, replays the `-wal`) as the next launch of the
/// app would, on the copy: judging a backup after a crash never creates a `-wal`, `-shm` or an empty file in it.
/// They ask for the support folder to be linked into the scratch directory (`linkingSupport`), so the store
/// layer finds external data files in place beside the copy; nothing they do writes external data.
///
/// A missing store throws `missingStore`, an empty file `notACoreDataStore` saying it is empty, so neither is
/// mistaken for a damaged store.
///
/// The copy is as consistent as the files are while it is taken: it is retaken (up to three times) when the
/// files' sizes or times change during the copy, which is what a writer that is still at work does.
public final class StoreSnapshot: @unchecked Sendable {
    /// The store as named by the caller (its support folder is read in place).
    public let original: StoreFiles
    /// The copy, in `directory`, under the same file name.
    public let copy: StoreFiles
    public let directory: URL

    public init(of url: URL, linkingSupport: Bool = false) throws {
        original = StoreFiles(url)
        try Self.requireRegularFile(original.database, what: "the store")
        if StoreFiles.size(original.database) == 0 {
            throw StoreError.notACoreDataStore(original.database.path, reason: "the file is empty (0 bytes)")
        }
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("lifeboat-read-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        guard mkdir(directory.path, 0o700) == 0 else {
            throw StoreError.io("cannot create a scratch directory \(directory.path): \(String(cString: strerror(errno)))")
        }
        copy = StoreFiles(directory.appendingPathComponent(original.database.lastPathComponent))
        do {
            var attempts = 0
            while true {
                attempts += 1
                let before = Self.fingerprint(original)
                try Self.copyFiles(original, to: copy)
                if Self.fingerprint(original) == before || attempts >= 3 { break }
            }
            var info = stat()
            if linkingSupport, lstat(original.supportFolder.path, &info) == 0,
               symlink(original.supportFolder.path, copy.supportFolder.path) != 0 {
                throw StoreError.io("cannot link \(copy.supportFolder.path): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    private static func copyFiles(_ source: StoreFiles, to target: StoreFiles) throws {
        for companion in target.companions + [target.database] { unlink(companion.path) }
        try copyRegular(source.database, to: target.database)
        for (from, to) in [(source.wal, target.wal), (source.journal, target.journal)] {
            var info = stat()
            guard lstat(from.path, &info) == 0 else { continue }
            try requireRegularFile(from, what: "the store's \(from.lastPathComponent)")
            try copyRegular(from, to: to)
        }
    }

    /// Sizes and modification times of the files copied: unchanged across a copy means nobody wrote meanwhile.
    private static func fingerprint(_ files: StoreFiles) -> [Int64] {
        [files.database, files.wal, files.journal].flatMap { url -> [Int64] in
            var info = stat()
            guard stat(url.path, &info) == 0 else { return [-1] }
            return [Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)]
        }
    }

    /// Refuses anything but a regular file (a directory, a FIFO, a device, a socket) before it is opened: opening
    /// a FIFO blocks and reading a device never ends. Symbolic links are followed.
    public static func requireRegularFile(_ url: URL, what: String) throws {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            if errno == ENOENT { throw StoreError.missingStore(url.path) }
            throw StoreError.unopenable(url.path, reason: String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw StoreError.unopenable(url.path, reason: "\(what) is \(FileKind.describe(info.st_mode)), not a regular file")
        }
    }

    /// Copies one regular file with plain reads (no clone: the copy must not share blocks with evidence that may
    /// be rewritten), opening it non-blocking and checking it is still a regular file once open.
    static func copyRegular(_ source: URL, to destination: URL) throws {
        let input = open(source.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard input >= 0 else { throw StoreError.unopenable(source.path, reason: String(cString: strerror(errno))) }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw StoreError.unopenable(source.path, reason: "not a regular file")
        }
        let output = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw StoreError.io("cannot create \(destination.path): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        do {
            try FileCopy.readWriteCopy(input, output, source: source, sparse: true)
        } catch let error as StoreError {
            if case .io(let message) = error { throw StoreError.unopenable(source.path, reason: message) }
            throw error
        }
    }
}

/// Names the kind of a file from its mode, for messages.
public enum FileKind {
    public static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "a special file"
        }
    }
}
