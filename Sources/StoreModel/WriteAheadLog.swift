import Foundation

/// What a `-wal` file holds as SQLite's recovery would count it: the header's page size and the frames up to the
/// last valid commit frame (format: https://www.sqlite.org/fileformat2.html#walformat). A frame is valid when its
/// salts equal the header's and its cumulative checksum matches; the first invalid frame ends the log, and frames
/// after the last commit frame are not part of any transaction.
///
/// Used to say whether a crash state's `-wal` carries committed transactions (a 0-byte main file beside such a
/// `-wal` is the state of https://github.com/tursodatabase/turso/pull/4899); reading the file never opens it
/// with SQLite, which would delete a `-wal` found beside an empty main file.
public struct WriteAheadLog: Sendable, Equatable {
    /// The database page size the header names.
    public var pageSize: Int
    /// Frames of committed transactions (the valid prefix up to its last commit frame).
    public var committedFrames: Int
    /// Commit frames among them: the transactions the log carries.
    public var commits: Int
    /// The database size in pages after the last commit, 0 when there is none.
    public var databasePages: Int

    /// Reads the log in `data`; nil when it has no valid header (too short, wrong magic or version, bad checksum).
    public static func read(_ data: Data) -> WriteAheadLog? {
        let bytes = [UInt8](data)
        guard bytes.count >= 32 else { return nil }
        func be32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        let magic = be32(0)
        guard magic == 0x377f_0682 || magic == 0x377f_0683, be32(4) == 3_007_000 else { return nil }
        let bigEndian = magic & 1 == 1
        // SQLite stores 65536 as 1.
        let rawPageSize = Int(be32(8))
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else { return nil }
        var sum = checksum(bytes, 0..<24, bigEndian: bigEndian, seed: (0, 0))
        guard sum.0 == be32(24), sum.1 == be32(28) else { return nil }
        let salt = (be32(16), be32(20))
        var log = WriteAheadLog(pageSize: pageSize, committedFrames: 0, commits: 0, databasePages: 0)
        var frames = 0
        var offset = 32
        while offset + 24 + pageSize <= bytes.count {
            guard be32(offset + 8) == salt.0, be32(offset + 12) == salt.1 else { break }
            sum = checksum(bytes, offset..<offset + 8, bigEndian: bigEndian, seed: sum)
            sum = checksum(bytes, offset + 24..<offset + 24 + pageSize, bigEndian: bigEndian, seed: sum)
            guard sum.0 == be32(offset + 16), sum.1 == be32(offset + 20) else { break }
            frames += 1
            let pagesAfterCommit = Int(be32(offset + 4))
            if pagesAfterCommit > 0 {
                log.committedFrames = frames
                log.commits += 1
                log.databasePages = pagesAfterCommit
            }
            offset += 24 + pageSize
        }
        return log
    }

    /// The log in the file at `url`, nil when there is none or it has no valid header.
    public static func read(_ url: URL) -> WriteAheadLog? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return read(data)
    }

    /// SQLite's WAL checksum over `range` (a multiple of 8 bytes), words read in the log's byte order.
    static func checksum(_ bytes: [UInt8], _ range: Range<Int>, bigEndian: Bool, seed: (UInt32, UInt32)) -> (UInt32, UInt32) {
        var (s0, s1) = seed
        func word(_ at: Int) -> UInt32 {
            bigEndian
                ? UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
                : UInt32(bytes[at + 3]) << 24 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at])
        }
        var index = range.lowerBound
        while index < range.upperBound {
            s0 = s0 &+ word(index) &+ s1
            s1 = s1 &+ word(index + 4) &+ s0
            index += 8
        }
        return (s0, s1)
    }
}
