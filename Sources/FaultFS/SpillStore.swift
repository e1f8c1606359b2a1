import Foundation
import CLifeboatSys
#if canImport(Glibc)
import Glibc
#endif

/// Where one piece of unsynced bytes lives.
enum ByteSource: Sendable {
    /// In the daemon's memory; the Data holds exactly the piece's bytes (startIndex 0).
    case memory(Data)
    /// In the volume's spill file, starting at this offset.
    case spill(Int64)
    /// A range that reads as zeros (punch hole / zero range); holds nothing.
    case zeros

    /// The sub-piece of `length` bytes starting `from` bytes into this one. Memory is copied (so a partly
    /// overwritten write does not pin its whole buffer); spill and zeros cost nothing.
    func slice(from: Int64, length: Int64) -> ByteSource {
        switch self {
        case .memory(let d): return .memory(d.subdata(in: Int(from)..<Int(from + length)))
        case .spill(let o): return .spill(o + from)
        case .zeros: return .zeros
        }
    }

    var isMemory: Bool { if case .memory = self { return true } else { return false } }
}

/// The bytes of unsynced writes, kept within a per-volume memory budget. Under the budget a write's bytes
/// stay in RAM; past it they are appended to a spill file (an unnamed O_TMPFILE next to the backing data,
/// never visible on the mount and gone when the daemon exits). Bytes that a later write overwrote (needed
/// only to replay a crash exactly: see `FileOverlay`) always go to the spill file, so RAM holds at most the
/// distinct unsynced bytes, capped by the budget, whatever the number of writes.
///
/// Not thread-safe by itself: it lives inside `DurabilityState` behind the state Mutex. Reading spilled
/// bytes (`read`) is a plain pread and may run outside the lock while the range is known to stay allocated
/// (an fsync holds its inode's ranges until it finishes).
struct SpillStore: Sendable {
    /// The spill file, or -1 when there is none (every byte then stays in RAM).
    let fd: Int32
    /// RAM budget for unsynced bytes.
    let budget: Int64
    /// Unsynced bytes held in RAM.
    private(set) var ramBytes: Int64 = 0
    /// Bytes of the spill file still referenced; at zero the file is emptied.
    private(set) var liveSpillBytes: Int64 = 0
    /// Append position in the spill file.
    private(set) var end: Int64 = 0
    /// Peak of `ramBytes` (status output).
    private(set) var peakRAM: Int64 = 0

    init(fd: Int32, budget: Int64) {
        self.fd = fd
        self.budget = budget
    }

    /// Opens an unnamed spill file in `directory` (O_TMPFILE, or a created-then-unlinked file where the file
    /// system has no O_TMPFILE).
    static func open(directory: String, budget: Int64) throws -> SpillStore {
        var fd = Glibc.open(directory, O_RDWR | O_CLOEXEC | 0o20_000_000 /* O_TMPFILE */ | O_DIRECTORY, 0o600)
        if fd < 0 {
            var template = Array("\(directory)/.faultfs-spill-XXXXXX".utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if fd >= 0 { template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) } }
        }
        if fd < 0 { throw FaultFSError.io("cannot create a spill file in \(directory): \(String(cString: strerror(errno)))") }
        return SpillStore(fd: fd, budget: budget)
    }

    /// Keeps a copy of `bytes`: in RAM while that stays within the budget, else in the spill file.
    mutating func store(_ bytes: UnsafeRawBufferPointer) -> Result<ByteSource, ErrnoCode> {
        let n = Int64(bytes.count)
        if fd < 0 || ramBytes + n <= budget {
            ramBytes += n
            peakRAM = max(peakRAM, ramBytes)
            return .success(.memory(Data(bytes)))
        }
        return append(bytes).map { .spill($0) }
    }

    /// Released spill ranges at least this long are punched out at once; shorter ones wait for the file to empty.
    static let punchThreshold: Int64 = 1 << 20

    /// Moves a piece out of RAM into the spill file (bytes kept only for crash replay). A piece that cannot be
    /// spilled (no spill file, disk full) stays in RAM.
    mutating func evict(_ source: ByteSource) -> ByteSource {
        guard case .memory(let d) = source, fd >= 0 else { return source }
        guard case .success(let o) = d.withUnsafeBytes({ append($0) }) else { return source }
        ramBytes -= Int64(d.count)
        return .spill(o)
    }

    /// Forgets a piece of `length` bytes: RAM is released, a spilled range is punched out of the file, and
    /// the file is emptied once nothing in it is referenced.
    mutating func release(_ source: ByteSource, length: Int64) {
        switch source {
        case .memory(let d): ramBytes -= Int64(d.count)
        case .zeros: break
        case .spill(let o):
            liveSpillBytes -= length
            if liveSpillBytes <= 0 {
                liveSpillBytes = 0
                end = 0
                _ = ftruncate(fd, 0)
            } else {
                // Free whole blocks inside a large range right away (best effort; neighbours may share edges).
                // Small pieces wait for the file to empty: punching each one leaves the file in thousands of
                // extents, and on a file system mounted with `discard` every punch and the final truncate then
                // discard extent by extent (an fsx run's shutdown took minutes that way). The disk held stays
                // within the bytes written since the last fsync, as documented.
                let lo = (o + 4095) / 4096 * 4096, hi = (o + length) / 4096 * 4096
                if hi - lo >= Self.punchThreshold { _ = lb_fallocate(fd, LB_FALLOC_FL_PUNCH_HOLE | LB_FALLOC_FL_KEEP_SIZE, lo, hi - lo) }
            }
        }
    }

    /// Copies `buf.count` bytes of a piece, starting `from` bytes into it, into `buf`. Returns 0 or -errno.
    func read(_ source: ByteSource, from: Int64, into buf: UnsafeMutableRawBufferPointer) -> Int32 {
        guard buf.count > 0 else { return 0 }
        switch source {
        case .memory(let d):
            d.withUnsafeBytes { src in
                buf.baseAddress!.copyMemory(from: src.baseAddress!.advanced(by: Int(from)), byteCount: buf.count)
            }
            return 0
        case .zeros:
            memset(buf.baseAddress!, 0, buf.count)
            return 0
        case .spill(let o):
            let got = preadAll(fd, buf, o + from)
            if got < 0 { return Int32(got) }
            if got < buf.count { memset(buf.baseAddress!.advanced(by: got), 0, buf.count - got) }
            return 0
        }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) -> Result<Int64, ErrnoCode> {
        let at = end
        let r = pwriteAll(fd, bytes, at)
        if r != 0 { return .failure(ErrnoCode(rawValue: -r)) }
        end += Int64(bytes.count)
        liveSpillBytes += Int64(bytes.count)
        return .success(at)
    }
}
