import CFuse3
import CLifeboatSys
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// File contents: open/create bookkeeping, read, write, fsync, truncate, fallocate, copy_file_range, lseek.
/// Writes go to the unsynced cache; fsync writes them to the backing file.
extension FaultFileSystem {
    /// Flags for our backing descriptor: never append (we pwrite at the kernel's offsets), never truncate
    /// (a truncate is a pending op), never O_DIRECT; always readable so the cache can merge.
    static func backingFlags(_ flags: Int32) -> Int32 {
        var f = flags & ~(O_CREAT | O_EXCL | O_TRUNC | O_APPEND | O_NOCTTY | Int32(0o40000) /* O_DIRECT */)
        if (f & O_ACCMODE) == O_WRONLY { f = (f & ~O_ACCMODE) | O_RDWR }
        return f | O_CLOEXEC
    }

    /// Direct I/O for every file but SQLite's -shm: one FUSE request per write() instead of the two the page
    /// cache makes of a WAL frame's unaligned page, and no kernel copy that could outlive a simulated crash.
    /// The -shm keeps the page cache because SQLite maps it MAP_SHARED, which direct I/O refuses on libfuse 3.14.
    /// With `--mmap` every file keeps the page cache, so MAP_SHARED works everywhere (see docs/faultfs.md for
    /// what that costs the crash model).
    func chooseCaching(_ path: String, _ fi: UnsafeMutablePointer<fuse_file_info>) {
        fi.pointee.direct_io = keepPageCache || path.hasSuffix("-shm") ? 0 : 1
    }

    /// open(2) of an existing file. `node` (low-level API): the node the kernel opens, resolved to its inode as it
    /// is now (`openNode`); `path` is then its name for rules and the log.
    func open(_ path: String, _ fi: UnsafeMutablePointer<fuse_file_info>, node: UInt64? = nil) -> Int32 {
        if backing.isHidden(path) { return -ENOENT }
        let (fail, fault) = injected(.open, path)
        if let fail { return fail }
        let flags = fi.pointee.flags
        let fd = node.map { openNode($0, flags: Self.backingFlags(flags)) }
            ?? lb_openat(backing.dirFD, backing.rel(path), Self.backingFlags(flags), 0)
        if fd < 0 { let e = node == nil ? errno : -fd; logOp(.open, path, result: Int64(-e), fault: fault); return -e }
        var st = stat()
        fstat(fd, &st)
        let ino = UInt64(st.st_ino)
        if (flags & O_TRUNC) != 0 && (flags & O_ACCMODE) != O_RDONLY && isRegular(st) {
            if case .success(let (seq, _)) = addPending(ino: ino, fd: fd, path: path, .truncate(size: 0)) {
                logOp(.truncate, path, result: 0, seq: seq) { $0.ino = ino; $0.size = 0; $0.durable = false }
            }
            touchAfterWrite(fd: fd, clearPrivileges: true)
        }
        fi.pointee.fh = addHandle(OpenFile(fd: fd, ino: ino, epoch: epoch.load(ordering: .relaxed), path: path, isDirectory: false))
        chooseCaching(path, fi)
        logOp(.open, path, result: 0, fault: fault) { $0.ino = ino; $0.detail = "flags=0x\(String(flags, radix: 16))" }
        return 0
    }

    func create(_ path: String, _ mode: mode_t, _ fi: UnsafeMutablePointer<fuse_file_info>) -> Int32 {
        if backing.isHidden(path) { return -EPERM }
        let (fail, fault) = injected(.create, path)
        if let fail { return fail }
        return entryLock.run(exclusive: false) {
            let path = current(path)
            let flags = fi.pointee.flags
            let r = backing.rel(path)
            let dirIno = backing.parentIno(path)
            var created = true
            var fd = lb_openat(backing.dirFD, r, Self.backingFlags(flags) | O_CREAT | O_EXCL, UInt32(Self.masked(mode)))
            if fd < 0 && errno == EEXIST && (flags & O_EXCL) == 0 {
                created = false
                fd = lb_openat(backing.dirFD, r, Self.backingFlags(flags), 0)
            }
            if fd < 0 { let e = errno; logOp(.create, path, result: Int64(-e), fault: fault); return -e }
            var st = stat()
            fstat(fd, &st)
            let ino = UInt64(st.st_ino)
            if created {
                giveToCaller(r)
                recordEntry(.create, path: path, ino: ino, dirs: [dirIno], fault: fault)
            } else if (flags & O_TRUNC) != 0 {
                _ = addPending(ino: ino, fd: fd, path: path, .truncate(size: 0))
                touchAfterWrite(fd: fd, clearPrivileges: true)
            }
            fi.pointee.fh = addHandle(OpenFile(fd: fd, ino: ino, epoch: epoch.load(ordering: .relaxed), path: path, isDirectory: false))
            chooseCaching(path, fi)
            return 0
        }
    }

    func read(_ path: String?, _ buf: UnsafeMutablePointer<CChar>, _ size: Int, _ offset: Int64,
              _ fi: UnsafeMutablePointer<fuse_file_info>) -> Int32 {
        guard let h = liveHandle(fi.pointee.fh) else { return -EIO }
        let p = path ?? h.path
        let d = check(.read, [p])
        if let e = d.errnoValue {
            logOp(.read, p, result: Int64(-e), fault: d.ruleID) { $0.ino = h.ino; $0.offset = offset; $0.length = Int64(size) }
            return -e
        }
        var want = size
        if case .shortRead(let n)? = d.action { want = min(size, n) }
        let out = UnsafeMutableRawBufferPointer(start: buf, count: want)
        let n = readMerged(ino: h.ino, into: out, at: offset) ?? preadAll(h.fd, out, offset)
        if d.ruleID != nil {
            logOp(.read, p, result: Int64(n), fault: d.ruleID) { $0.ino = h.ino; $0.offset = offset; $0.length = Int64(size) }
        }
        return Int32(n)
    }

    func write(_ path: String?, _ buf: UnsafePointer<CChar>, _ size: Int, _ offset: Int64,
               _ fi: UnsafeMutablePointer<fuse_file_info>) -> Int32 {
        guard let h = liveHandle(fi.pointee.fh) else { return -EIO }
        let p = path ?? h.path
        let d = check(.write, [p], bytes: size)
        if let e = d.errnoValue {
            logOp(.write, p, result: Int64(-e), fault: d.ruleID) { $0.ino = h.ino; $0.offset = offset; $0.length = Int64(size) }
            return -e
        }
        var n = size
        switch d.action {
        case .shortWrite(let limit)?: n = min(size, limit)
        case let action? where action.writeBudget != nil:
            n = min(size, d.allowedBytes ?? 0)
            if n == 0 {
                let e = action.writeBudget?.errno ?? ENOSPC
                logOp(.write, p, result: Int64(-e), fault: d.ruleID) { $0.ino = h.ino; $0.offset = offset; $0.length = Int64(size) }
                return -e
            }
        default: break
        }
        let bytes = UnsafeRawBufferPointer(start: buf, count: n)
        switch addPending(ino: h.ino, fd: h.fd, path: p, .write(offset: offset, length: Int64(n)), bytes: bytes) {
        case .failure(let e):
            logOp(.write, p, result: Int64(-e.rawValue), fault: d.ruleID) { $0.ino = h.ino; $0.offset = offset; $0.length = Int64(size) }
            return -e.rawValue
        case .success(let (seq, newSize)):
            touchAfterWrite(fd: h.fd, clearPrivileges: true)
            // A write cut short by a rule leaves a size the kernel did not ask for: drop its cached attributes.
            if n < size { invalidateKernelCaches([], inos: [h.ino]) }
            if let log {
                let dataOffset = log.storePayload(bytes)
                logOp(.write, p, result: Int64(n), fault: d.ruleID, seq: seq) {
                    $0.ino = h.ino; $0.offset = offset; $0.length = Int64(n); $0.size = newSize; $0.durable = false
                    $0.hash = hex64(fnv1a64(bytes)); $0.dataOffset = dataOffset
                }
            }
            return Int32(n)
        }
    }

    func fsync(_ path: String?, datasync: Bool, _ fi: UnsafeMutablePointer<fuse_file_info>) -> Int32 {
        guard let h = liveHandle(fi.pointee.fh) else { return -EIO }
        let p = path ?? h.path
        let opName: LoggedOp = datasync ? .fdatasync : .fsync
        let d = check(.fsync, [p])
        if let e = d.errnoValue {
            if e == EIO, let semantics = fsyncFailure.withLock({ $0 }) {
                return failedFsync(h, p, opName: opName, ruleID: d.ruleID, semantics)
            }
            logOp(opName, p, result: Int64(-e), fault: d.ruleID) { $0.ino = h.ino }
            return -e
        }
        switch d.action {
        case .fsyncLie?:
            logOp(opName, p, result: 0, fault: d.ruleID) { $0.ino = h.ino; $0.detail = "lie: nothing made durable"; $0.synced = [] }
            return 0
        case .fsyncFailClean?:
            if let semantics = fsyncFailure.withLock({ $0 }) {
                return failedFsync(h, p, opName: opName, ruleID: d.ruleID, semantics)
            }
            let dropped = dropPending(ino: h.ino)
            logOp(opName, p, result: Int64(-EIO), fault: d.ruleID) { $0.ino = h.ino; $0.dropped = dropped; $0.detail = "fail-clean: unsynced data dropped" }
            log?.flush()
            invalidateKernelCaches([p], inos: [h.ino])
            return -EIO
        default:
            break
        }
        let (r, synced) = syncFile(ino: h.ino, fd: h.fd, datasync: datasync)
        logOp(opName, p, result: Int64(r), fault: d.ruleID) { $0.ino = h.ino; $0.synced = synced; $0.durable = r == 0 }
        log?.flush()
        return r
    }

    func truncate(_ path: String?, _ size: Int64, _ fi: UnsafeMutablePointer<fuse_file_info>?) -> Int32 {
        if size < 0 { return -EINVAL }
        var fd: Int32
        var ino: UInt64
        var p: String
        var temporary = false
        if let fi, let h = handle(fi.pointee.fh) {
            guard h.epoch == epoch.load(ordering: .relaxed) else { return -EIO }
            fd = h.fd; ino = h.ino; p = path ?? h.path
        } else {
            guard let path else { return -EBADF }
            if backing.isHidden(path) { return -ENOENT }
            p = path
            fd = lb_openat(backing.dirFD, backing.rel(path), O_RDWR | O_CLOEXEC, 0)
            if fd < 0 { return -errno }
            temporary = true
            var st = stat()
            fstat(fd, &st)
            ino = UInt64(st.st_ino)
            if isDirectory(st) { close(fd); return -EISDIR }
        }
        defer { if temporary { close(fd) } }
        let (fail, fault) = injected(.truncate, p)
        if let fail { return fail }
        switch addPending(ino: ino, fd: fd, path: p, .truncate(size: size)) {
        case .failure(let e): return -e.rawValue
        case .success(let (seq, _)):
            touchAfterWrite(fd: fd, clearPrivileges: true)
            logOp(.truncate, p, result: 0, fault: fault, seq: seq) { $0.ino = ino; $0.size = size; $0.durable = false }
            return 0
        }
    }

    func fallocate(_ path: String?, _ mode: Int32, _ offset: Int64, _ length: Int64,
                   _ fi: UnsafeMutablePointer<fuse_file_info>?) -> Int32 {
        guard let fi else { return -EOPNOTSUPP }
        guard let h = liveHandle(fi.pointee.fh) else { return -EIO }
        let p = path ?? h.path
        if offset < 0 || length <= 0 { return -EINVAL }
        let supported = LB_FALLOC_FL_KEEP_SIZE | LB_FALLOC_FL_PUNCH_HOLE | LB_FALLOC_FL_ZERO_RANGE
        if mode & ~supported != 0 { return -EOPNOTSUPP }
        let (fail, fault) = injected(.fallocate, p)
        if let fail { return fail }
        let keepSize = mode & LB_FALLOC_FL_KEEP_SIZE != 0
        var seqs: [UInt64] = []
        if mode & (LB_FALLOC_FL_PUNCH_HOLE | LB_FALLOC_FL_ZERO_RANGE) != 0 {
            if mode & LB_FALLOC_FL_PUNCH_HOLE != 0 && !keepSize { return -EINVAL }
            if case .success(let (seq, _)) = addPending(ino: h.ino, fd: h.fd, path: p, .zero(offset: offset, length: length)) { seqs.append(seq) }
        } else {
            // Reserve the space in the backing file now (ENOSPC is reported honestly); the visible size
            // change is a pending op like a truncate.
            if lb_fallocate(h.fd, LB_FALLOC_FL_KEEP_SIZE, offset, length) != 0 {
                let e = errno
                logOp(.fallocate, p, result: Int64(-e), fault: fault) { $0.ino = h.ino; $0.offset = offset; $0.length = length }
                return -e
            }
        }
        if !keepSize {
            let current = pendingSize(h.ino) ?? { var st = stat(); fstat(h.fd, &st); return Int64(st.st_size) }()
            if offset + length > current,
               case .success(let (seq, _)) = addPending(ino: h.ino, fd: h.fd, path: p, .truncate(size: offset + length)) {
                seqs.append(seq)
            }
        }
        // Like a write: mtime/ctime now, and set-user-ID cleared for a caller other than root (vfs_fallocate's
        // file_modified does the same natively).
        touchAfterWrite(fd: h.fd, clearPrivileges: true)
        logOp(.fallocate, p, result: 0, fault: fault) {
            $0.ino = h.ino; $0.offset = offset; $0.length = length; $0.durable = seqs.isEmpty
            $0.detail = "mode=\(mode)"; $0.synced = seqs.isEmpty ? nil : seqs
        }
        return 0
    }

    /// copy_file_range: when neither file has unsynced data the copy runs on the backing FS (so XFS/btrfs
    /// share extents), recorded as an `.applied` pending op that a crash can undo; otherwise the merged
    /// source bytes become a pending write.
    func copyFileRange(_ pathIn: String?, _ fiIn: UnsafeMutablePointer<fuse_file_info>?, _ offIn: Int64,
                       _ pathOut: String?, _ fiOut: UnsafeMutablePointer<fuse_file_info>?, _ offOut: Int64,
                       _ size: Int, _ flags: Int32) -> Int {
        guard let fiIn, let fiOut else { return -Int(EBADF) }
        guard let hin = liveHandle(fiIn.pointee.fh), let hout = liveHandle(fiOut.pointee.fh) else { return -Int(EIO) }
        if flags != 0 { return -Int(EINVAL) }
        let pin = pathIn ?? hin.path, pout = pathOut ?? hout.path
        let (fail, fault) = injected(.copyFileRange, pin, pout)
        if let fail { return Int(fail) }
        let direct: Int? = state.withLock { s -> Int? in
            guard !(s.overlays[hin.ino]?.isVisible ?? false), !(s.overlays[hout.ino]?.isVisible ?? false),
                  !s.syncing.contains(hin.ino), !s.syncing.contains(hout.ino) else { return nil }
            var st = stat()
            fstat(hout.fd, &st)
            let oldSize = Int64(st.st_size)
            var old = Data(count: Int(max(0, min(Int64(size), oldSize - offOut))))
            _ = old.withUnsafeMutableBytes { preadAll(hout.fd, $0, offOut) }
            var i = offIn, o = offOut
            let n = lb_copy_file_range(hin.fd, &i, hout.fd, &o, size, 0)
            if n < 0 { return -Int(errno) }
            if n == 0 { return 0 }
            if old.count > Int(n) { old = old.prefix(Int(n)) }
            let r = ensureOverlay(&s, ino: hout.ino, fd: hout.fd, path: pout)
            if r != 0 { return Int(r) }
            let seq = nextSeq()
            let kind = PendingDataOp.Kind.applied(offset: offOut, old: old, oldSize: oldSize, length: Int64(n))
            s.overlays[hout.ino]!.logicalSize = oldSize
            s.overlays[hout.ino]!.validSize = max(oldSize, offOut + Int64(n))
            s.overlays[hout.ino]!.applied(kind, seq: seq)
            logOp(.copyFileRange, pout, result: Int64(n), fault: fault, seq: seq) {
                var new = Data(count: Int(n))
                _ = new.withUnsafeMutableBytes { preadAll(hout.fd, $0, offOut) }
                $0.path2 = pin; $0.offset = offOut; $0.length = Int64(n); $0.durable = false
                $0.hash = new.withUnsafeBytes { hex64(fnv1a64($0)) }; $0.detail = "backing copy from offset \(offIn)"
            }
            return Int(n)
        }
        if let direct {
            if direct > 0 { touchAfterWrite(fd: hout.fd, clearPrivileges: true) }
            return direct
        }
        // Buffered: read the source through its overlay, write as a pending op.
        var data = Data(count: size)
        let got = data.withUnsafeMutableBytes { readMerged(ino: hin.ino, into: $0, at: offIn) ?? preadAll(hin.fd, $0, offIn) }
        if got <= 0 { return got }
        data = data.prefix(got)
        let added = data.withUnsafeBytes {
            addPending(ino: hout.ino, fd: hout.fd, path: pout, .write(offset: offOut, length: Int64(got)), bytes: $0)
        }
        switch added {
        case .failure(let e): return -Int(e.rawValue)
        case .success(let (seq, _)):
            touchAfterWrite(fd: hout.fd, clearPrivileges: true)
            logOp(.copyFileRange, pout, result: Int64(got), fault: fault, seq: seq) {
                $0.path2 = pin; $0.offset = offOut; $0.length = Int64(got); $0.durable = false
                $0.hash = data.withUnsafeBytes { hex64(fnv1a64($0)) }; $0.detail = "buffered copy from offset \(offIn)"
            }
            return got
        }
    }

    func lseek(_ path: String?, _ offset: Int64, _ whence: Int32, _ fi: UnsafeMutablePointer<fuse_file_info>?) -> Int64 {
        guard let fi, let h = liveHandle(fi.pointee.fh) else { return -Int64(EIO) }
        if whence == LB_SEEK_DATA || whence == LB_SEEK_HOLE {
            // With unsynced data the overlay answers from its extent map and the backing file's own holes.
            let answer: Int64? = state.withLock { s in
                guard let ov = s.overlays[h.ino], !ov.ops.isEmpty else { return nil }
                var st = stat()
                let block = fstat(ov.fd, &st) == 0 && st.st_blksize > 0 ? Int64(st.st_blksize) : 4096
                return ov.seek(data: whence == LB_SEEK_DATA, from: offset, block: block) { at, how in
                    let r = Glibc.lseek(ov.fd, off_t(at), how)
                    return r < 0 ? nil : Int64(r)
                }
            }
            if let answer { return answer }
        }
        let r = Glibc.lseek(h.fd, off_t(offset), whence)
        return r < 0 ? -Int64(errno) : Int64(r)
    }

    /// close(2) of one file descriptor. FUSE sends a flush for every close of every descriptor of an open file
    /// (dup'd and inherited ones too, and the closes a process's exit makes), and its result is what that close(2)
    /// returns; `release` comes once, after the last, and the kernel ignores its result. So close is failed or held
    /// here: the rules are consulted like any other call's (`errno NAME`, `delay MS`, `crash`). Nothing is written
    /// back at close (every write already reached the unsynced cache, as on a local file system), so a failed close
    /// leaves the file's bytes and what is durable exactly as they were (docs/faultfs.md, "EIO at close"). A handle
    /// opened before a crash closes without consulting the rules: close works after a crash. The call is logged only
    /// when a rule fired on it, as reads are: every close would otherwise be a record.
    func flush(_ fi: UnsafeMutablePointer<fuse_file_info>?) -> Int32 {
        guard let fi, let h = liveHandle(fi.pointee.fh) else { return 0 }
        let d = check(.flush, [h.path])
        guard let ruleID = d.ruleID else { return 0 }
        let result = -(d.errnoValue ?? 0)
        logOp(.flush, h.path, result: Int64(result), fault: ruleID) { $0.ino = h.ino }
        return result
    }

    func release(_ path: String?, _ fi: UnsafeMutablePointer<fuse_file_info>?) -> Int32 {
        guard let fi, let h = removeHandle(fi.pointee.fh) else { return 0 }
        Glibc.close(h.fd)
        dropIdleOverlay(ino: h.ino)
        return 0
    }
}
