import Foundation

/// Grows a store's main file by free pages on SQLite's freelist, as a store has after much of its data was
/// deleted without a VACUUM, so that a small generated store can stand for a large one: past 1 GiB its pages
/// straddle the lock-byte page (the page holding byte offset 0x40000000, which SQLite never reads or writes and
/// copiers have mishandled, https://github.com/superfly/ltx/pull/51).
///
/// The new free pages are written as holes (only the freelist trunk pages hold bytes), so growing by a gigabyte
/// costs milliseconds and no disk. SQLite hands out the first trunk's leaves first, and the first trunks list the
/// highest pages, so objects saved afterwards land at the end of the file, above the lock page.
public enum FreePages {
    /// SQLite's `PENDING_BYTE`: the page that holds this offset is the lock-byte page.
    public static let lockByteOffset = 0x4000_0000

    /// What `add` did: the page count before and after, and how many free pages the file has now.
    public struct Growth: Sendable, Equatable {
        public var pagesBefore: Int
        public var pagesAfter: Int
        public var freePages: Int
        public var pageSize: Int
    }

    /// Adds at least `bytes` of free pages to the end of the database file at `url`. The store must be closed and
    /// checkpointed: a non-empty `-wal` or a hot `-journal` beside it would describe pages this rewrite cannot see.
    @discardableResult
    public static func add(bytes: Int, to url: URL) throws -> Growth {
        for suffix in ["-wal", "-journal"] {
            let path = url.path + suffix
            if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber, size.intValue > 0 {
                throw StoreError.io("cannot add free pages to \(url.path): \(suffix) is not empty (close and checkpoint the store first)")
            }
        }
        let fd = open(url.path, O_RDWR)
        guard fd >= 0 else { throw StoreError.io("cannot open \(url.path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 100)
        guard pread(fd, &header, 100, 0) == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw StoreError.notACoreDataStore(url.path, reason: "no SQLite header")
        }
        let rawSize = Int(header[16]) << 8 | Int(header[17])
        let pageSize = rawSize == 1 ? 65_536 : rawSize
        let usable = pageSize - Int(header[20])
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw StoreError.io("cannot stat \(url.path)") }
        let pagesBefore = Int(info.st_size) / pageSize
        // The header's page count is only trusted when its version-valid-for number matches the change counter.
        if read32(header, 24) == read32(header, 92), read32(header, 28) != pagesBefore {
            throw StoreError.notACoreDataStore(url.path, reason: "header says \(read32(header, 28)) pages, file holds \(pagesBefore)")
        }
        let lockPage = lockByteOffset / pageSize + 1
        var pagesAfter = pagesBefore + max(1, (bytes + pageSize - 1) / pageSize)
        if pagesBefore < lockPage, pagesAfter >= lockPage { pagesAfter += 1 }
        // Highest first: the first trunk's leaves are what SQLite allocates next.
        let free = (pagesBefore + 1...pagesAfter).reversed().filter { $0 != lockPage }
        // SQLite accepts usable/4 - 2 leaves per trunk but writes at most usable/4 - 8 (older versions misread more).
        let perTrunk = usable / 4 - 8
        let groups = stride(from: 0, to: free.count, by: perTrunk + 1).map { Array(free[$0..<min($0 + perTrunk + 1, free.count)]) }
        guard ftruncate(fd, off_t(pagesAfter) * off_t(pageSize)) == 0 else {
            throw StoreError.io("cannot grow \(url.path): \(String(cString: strerror(errno)))")
        }
        let oldFirstTrunk = read32(header, 32)
        for (index, group) in groups.enumerated() {
            var page = [UInt8](repeating: 0, count: pageSize)
            let next = index + 1 < groups.count ? groups[index + 1][0] : oldFirstTrunk
            write32(&page, 0, next)
            write32(&page, 4, group.count - 1)
            for (slot, leaf) in group.dropFirst().enumerated() { write32(&page, 8 + slot * 4, leaf) }
            guard pwrite(fd, page, pageSize, off_t(group[0] - 1) * off_t(pageSize)) == pageSize else {
                throw StoreError.io("cannot write a freelist trunk page to \(url.path)")
            }
        }
        let freePages = read32(header, 36) + free.count
        write32(&header, 28, pagesAfter)
        write32(&header, 32, groups.first?[0] ?? oldFirstTrunk)
        write32(&header, 36, freePages)
        let counter = read32(header, 24) &+ 1
        write32(&header, 24, counter)
        write32(&header, 92, counter)
        guard pwrite(fd, header, 100, 0) == 100, fsync(fd) == 0 else {
            throw StoreError.io("cannot write the header of \(url.path)")
        }
        return Growth(pagesBefore: pagesBefore, pagesAfter: pagesAfter, freePages: freePages, pageSize: pageSize)
    }

    static func read32(_ bytes: [UInt8], _ offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    static func write32(_ bytes: inout [UInt8], _ offset: Int, _ value: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * (3 - index))) }
    }
}
