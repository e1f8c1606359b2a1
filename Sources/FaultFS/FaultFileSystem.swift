import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An open file or directory on the mount: our backing descriptor plus what the crash model needs.
struct OpenFile: Sendable {
    let fd: Int32
    let ino: UInt64
    /// Crash generation when opened: handles from before a crash fail with EIO (the process "crashed").
    let epoch: UInt64
    var path: String
    let isDirectory: Bool
}

/// All non-durable state, behind one Mutex.
struct DurabilityState: Sendable {
    /// Unsynced data per backing inode.
    var overlays: [UInt64: FileOverlay] = [:]
    /// Directory-entry changes not yet made durable, in seq order.
    var entries: [NamespaceOp] = []
    /// The trash entries of `entries` by the inode whose link each holds, so that a getattr counts the links the
    /// trash holds of one inode without going over every pending change (`FaultFileSystem.trashLinks`).
    var trashByIno: [UInt64: Set<String>] = [:]

    /// Drops the trash entries of `ops` (made durable or undone) from `trashByIno`.
    mutating func forgetTrash(of ops: some Sequence<NamespaceOp>) {
        for op in ops {
            guard let t = op.trash, let i = op.trashIno else { continue }
            trashByIno[i]?.remove(t)
            if trashByIno[i]?.isEmpty == true { trashByIno.removeValue(forKey: i) }
        }
    }
    /// Inodes whose overlay is being written to the backing file by an fsync right now.
    var syncing: Set<UInt64> = []
    var crashes = 0
    /// Where unsynced bytes live (RAM within the budget, else the spill file).
    var store: SpillStore
}

/// The daemon's file system: pass-through to the backing directory with an in-memory layer of everything
/// not yet durable. FUSE worker threads call into it concurrently; all mutable state sits behind Mutexes
/// and Atomics (no actors: FUSE threads are plain pthreads and must not block on the concurrency runtime).
final class FaultFileSystem: Sendable {
    let backing: Backing
    let faults: FaultEngine
    let log: OpLogWriter?
    let seed: UInt64
    let mountpoint: String

    let state: Mutex<DurabilityState>
    private let handles = Mutex<[UInt64: OpenFile]>([:])
    private let nextHandle = Atomic<UInt64>(1)
    private let seqCounter = Atomic<UInt64>(0)
    let epoch = Atomic<UInt64>(0)
    private let trashCounter = Atomic<UInt64>(0)
    /// `struct fuse *` of the running loop (bit pattern), for cache invalidation after a crash.
    let fuseHandle = Atomic<UInt>(0)
    /// `struct fuse_session *` of the low-level session (bit pattern), for kernel notifications.
    let lowLevelSession = Atomic<UInt>(0)
    /// The node ids the kernel holds (low-level API).
    let nodes: NodeTable
    /// Namespace changes (rename, unlink, rmdir) between their backing change and their node-table update, and
    /// how many have completed: a request that resolved a node's name during one retries (`resolvingNames`).
    let namespaceChangesInFlight = Atomic<Int>(0)
    let namespaceChangesDone = Atomic<UInt64>(0)
    /// Directory renames against entry changes (see `NamespaceLock`).
    let entryLock = NamespaceLock()
    /// Requests that reply with an entry, not yet replied (see `producingEntry`).
    let entryRequestsInFlight = Atomic<Int>(0)
    /// FUSE requests served (for requests per operation in the benchmarks).
    let requests = Atomic<UInt64>(0)
    /// pthread_t of the thread running the FUSE loop, signalled to stop it.
    let loopThread = Atomic<UInt>(0)
    let stopping = Atomic<Bool>(false)
    /// `--mmap`: regular files keep the kernel page cache (no direct I/O).
    let keepPageCache: Bool
    /// The process behind each logged call (`OpRecord.pid`).
    let callers = OpLogCallers()
    /// `--host-sync`: whether a durable operation also flushes the host device (see `CrashModel`).
    let hostSync: HostSync
    /// `--fsync-failure` / the `fsync-failure` verb: what an fsync failed with EIO leaves (see `FsyncFailure`).
    let fsyncFailure: Mutex<FsyncFailure?>

    init(backing: Backing, mountpoint: String, seed: UInt64, log: OpLogWriter?, store: SpillStore = SpillStore(fd: -1, budget: .max),
         keepPageCache: Bool = false, hostSync: HostSync = .defaultSetting, fsyncFailure: FsyncFailure? = nil) {
        self.keepPageCache = keepPageCache
        self.hostSync = hostSync
        self.fsyncFailure = Mutex(fsyncFailure)
        self.state = Mutex(DurabilityState(store: store))
        self.backing = backing
        self.nodes = NodeTable(rootIno: UInt64(backing.lstat(".")?.st_ino ?? 0))
        self.mountpoint = mountpoint
        self.seed = seed
        self.faults = FaultEngine(seed: seed, callerPID: Self.fuseCallerPID)
        self.log = log
    }

    // MARK: Sequencing and logging

    func nextSeq() -> UInt64 { seqCounter.wrappingAdd(1, ordering: .relaxed).newValue }

    /// Appends a record to the op log (when logging); `seq` nil draws a new one.
    func logOp(_ op: LoggedOp, _ path: String?, result: Int64, fault: String? = nil, seq: UInt64? = nil,
               _ fill: (inout OpRecord) -> Void = { _ in }) {
        guard let log else { return }
        var r = OpRecord(seq: seq ?? nextSeq(), t: log.now(), op: op, path: path, result: result, fault: fault)
        fill(&r)
        callers.stamp(&r, thread: Self.fuseCallerPID())
        log.append(r)
    }

    func newTrashName() -> String {
        "\(Backing.trashName)/t\(trashCounter.wrappingAdd(1, ordering: .relaxed).newValue)"
    }

    // MARK: Handles

    func addHandle(_ f: OpenFile) -> UInt64 {
        let id = nextHandle.wrappingAdd(1, ordering: .relaxed).oldValue
        handles.withLock { $0[id] = f }
        return id
    }

    func handle(_ id: UInt64) -> OpenFile? { handles.withLock { $0[id] } }

    func removeHandle(_ id: UInt64) -> OpenFile? { handles.withLock { $0.removeValue(forKey: id) } }

    /// A handle open on backing inode `ino` (a regular file's first), to serve a node that has lost its name.
    func handleID(forIno ino: UInt64) -> UInt64? {
        handles.withLock { h in
            h.first { $0.value.ino == ino && !$0.value.isDirectory }?.key ?? h.first { $0.value.ino == ino }?.key
        }
    }

    var openHandleCount: Int { handles.withLock { $0.count } }

    /// Handles opened before the latest crash.
    var staleHandleCount: Int {
        let e = epoch.load(ordering: .relaxed)
        return handles.withLock { $0.values.filter { $0.epoch != e }.count }
    }

    /// Closes every backing descriptor we hold, handles and overlays (shutdown: files are closed before
    /// unmounting).
    func closeAllHandles() {
        let all = handles.withLock { h -> [OpenFile] in
            let v = Array(h.values)
            h.removeAll()
            return v
        }
        for f in all { close(f.fd) }
        nodes.closeAnchors()
        // Overlay descriptors too (after sync-all only idle ones remain).
        state.withLock { s in
            for ov in s.overlays.values { close(ov.fd) }
            s.overlays.removeAll()
            if s.store.fd >= 0 { close(s.store.fd) }
        }
    }

    // MARK: Unsynced data

    /// Returns the overlay of `ino`, creating it (with our own read-write descriptor) if needed.
    /// Must be called inside `state.withLock`. Returns -errno on failure.
    func ensureOverlay(_ s: inout DurabilityState, ino: UInt64, fd: Int32, path: String) -> Int32 {
        if s.overlays[ino] != nil {
            if !path.isEmpty { s.overlays[ino]!.pathHint = path }
            return 0
        }
        // Our own descriptor, so the overlay outlives the handle: a dup when the handle is read-write (every
        // writable handle is: see backingFlags), else a read-write reopen of the same inode.
        let rw = (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR
            ? fcntl(fd, F_DUPFD_CLOEXEC, 0)
            : Glibc.open("/proc/self/fd/\(fd)", O_RDWR | O_CLOEXEC)
        if rw < 0 { return -errno }
        var st = stat()
        if fstat(rw, &st) != 0 { let e = errno; close(rw); return -e }
        s.overlays[ino] = FileOverlay(fd: rw, size: Int64(st.st_size), pathHint: path)
        return 0
    }

    /// Adds a pending data op for `ino` (`bytes` are a write's data). Returns the op's seq and the size after
    /// it, or -errno.
    func addPending(ino: UInt64, fd: Int32, path: String, _ kind: PendingDataOp.Kind,
                    bytes: UnsafeRawBufferPointer? = nil) -> Result<(UInt64, Int64), ErrnoCode> {
        state.withLock { s in
            let r = ensureOverlay(&s, ino: ino, fd: fd, path: path)
            if r != 0 { return .failure(ErrnoCode(rawValue: -r)) }
            let seq = nextSeq()
            var ov = s.overlays.removeValue(forKey: ino)!
            defer { s.overlays[ino] = ov }
            switch kind {
            case .write(let off, _):
                let w = ov.write(bytes ?? UnsafeRawBufferPointer(start: nil, count: 0), at: off, seq: seq, store: &s.store)
                if w != 0 { return .failure(ErrnoCode(rawValue: -w)) }
            case .truncate(let size): ov.truncate(to: size, seq: seq, store: &s.store)
            case .zero(let off, let len): ov.zero(offset: off, length: len, seq: seq, store: &s.store)
            case .applied: ov.applied(kind, seq: seq)
            }
            return .success((seq, ov.logicalSize))
        }
    }

    /// Logical size of `ino` when it has unsynced data.
    func pendingSize(_ ino: UInt64) -> Int64? {
        state.withLock { s in s.overlays[ino].flatMap { $0.isVisible ? $0.logicalSize : nil } }
    }

    /// Reads through the overlay when `ino` has one; nil means "no overlay, read the backing file directly".
    func readMerged(ino: UInt64, into buf: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int? {
        state.withLock { s -> Int? in
            guard let ov = s.overlays[ino], ov.isVisible else { return nil }
            return ov.read(into: buf, at: offset, store: s.store)
        }
    }

    /// fsync/fdatasync of one file: writes its unsynced extents to the backing file, syncs it, and forgets
    /// what is now durable. The backing writes run outside the state lock (reads stay correct while it runs:
    /// see `FileOverlay.apply`); one sync per inode at a time. Returns the result and synced seqs.
    func syncFile(ino: UInt64, fd fallbackFD: Int32, datasync: Bool) -> (Int32, [UInt64]) {
        var snapshot: FileOverlay.Snapshot?
        var seqs: [UInt64] = []
        var spillFD: Int32 = -1
        var hasOverlay = false
        while true {
            let claimed: Bool = state.withLock { s in
                if s.syncing.contains(ino) { return false }
                if let ov = s.overlays[ino] {
                    hasOverlay = true
                    s.syncing.insert(ino)
                    snapshot = ov.snapshot
                    seqs = ov.ops.map(\.seq)
                    spillFD = s.store.fd
                }
                return true
            }
            if claimed { break }
            usleep(100)
        }
        guard hasOverlay else {
            return (hostFlush(fallbackFD, datasync: datasync), [])
        }
        var result: Int32 = 0
        var syncFD = fallbackFD
        if let snap = snapshot {
            syncFD = snap.fd
            result = FileOverlay.apply(snap, spillFD: spillFD)
        }
        if result == 0 {
            result = hostFlush(syncFD, datasync: datasync)
        }
        let synced: [UInt64] = state.withLock { s in
            s.syncing.remove(ino)
            guard result == 0, let snap = snapshot, var ov = s.overlays.removeValue(forKey: ino) else { return [] }
            ov.settle(snap, store: &s.store)
            // An overlay without ops stays (idle) while the file is open: its descriptor is reused by the
            // next write instead of a dup/close per transaction; release() drops it.
            s.overlays[ino] = ov
            return seqs
        }
        return (result, synced)
    }

    /// Flushes a backing descriptor to the host device (fsync, or fdatasync for `datasync`) when `--host-sync on`;
    /// with `off` it does nothing: the bytes are already in the backing file (the host's page cache), which is
    /// all a simulated crash and every check read. Returns 0 or -errno.
    func hostFlush(_ fd: Int32, datasync: Bool = false) -> Int32 {
        guard hostSync == .on else { return 0 }
        return (datasync ? fdatasync(fd) : Glibc.fsync(fd)) == 0 ? 0 : -errno
    }

    /// Closes an idle overlay (no pending ops) once no handle refers to its inode.
    func dropIdleOverlay(ino: UInt64) {
        let stillOpen = handles.withLock { $0.values.contains { $0.ino == ino } }
        if stillOpen { return }
        state.withLock { s in
            guard var ov = s.overlays[ino], !s.syncing.contains(ino) else { return }
            var st = stat()
            let gone = fstat(ov.fd, &st) == 0 && st.st_nlink == 0
            // Bytes a failed fsync left clean stay readable while the file has a name, as clean pages stay cached.
            if ov.ops.isEmpty && ov.clean.isEmpty || gone {
                // No link left (its unlink is durable) and nobody has it open: no crash can bring it back.
                ov.releaseAll(store: &s.store)
                close(ov.fd)
                s.overlays.removeValue(forKey: ino)
            }
        }
    }

    /// After the last name of `ino` went to the trash: its unsynced bytes leave RAM (only a crash that undoes
    /// the unlink can show them again); once the unlink is durable and no handle is open, they are freed.
    func evictUnlinked(ino: UInt64) {
        state.withLock { s in
            guard var ov = s.overlays.removeValue(forKey: ino) else { return }
            ov.evictAll(store: &s.store)
            s.overlays[ino] = ov
        }
    }

    /// fsync-fail-clean: the file's unsynced data is dropped as if it had been written (fsyncgate).
    func dropPending(ino: UInt64) -> [UInt64] {
        while true {
            let dropped: [UInt64]? = state.withLock { s in
                if s.syncing.contains(ino) { return nil }
                guard var ov = s.overlays.removeValue(forKey: ino) else { return [] }
                // An already-applied copy must be reverted so the file really holds its durable state.
                for op in ov.ops { _ = FileOverlay.revert(op.kind, on: ov.fd) }
                let seqs = ov.ops.map(\.seq)
                ov.releaseAll(store: &s.store)
                close(ov.fd)
                return seqs
            }
            if let dropped { return dropped }
            usleep(100)
        }
    }

    // MARK: Directory entries

    /// Records a directory-entry change (already applied to the backing directory) as not yet durable.
    func recordEntry(_ kind: NamespaceOp.Kind, path: String, path2: String? = nil, ino: UInt64, dirs: [UInt64],
                     trash: String? = nil, fault: String? = nil) {
        // An unlink's trash entry is its own inode; a rename's is the replaced victim's.
        let trashIno = trash.flatMap { t in kind == .rename ? backing.lstat(t).map { UInt64($0.st_ino) } : ino }
        let seq: UInt64 = state.withLock { s in
            let seq = nextSeq()
            s.entries.append(NamespaceOp(seq: seq, kind: kind, path: path, path2: path2, ino: ino, dirs: dirs, trash: trash,
                                         trashIno: trashIno))
            if let trash, let trashIno { s.trashByIno[trashIno, default: []].insert(trash) }
            return seq
        }
        logOp(kind.logged, path, result: 0, fault: fault, seq: seq) { r in
            r.path2 = path2
            r.ino = ino
            r.durable = false
        }
    }

    /// Directory fsync: makes durable every pending entry change up to the last one that touched this
    /// directory (a prefix, like a journal commit: earlier changes never become durable after later ones).
    func syncDirectory(ino: UInt64) -> [UInt64] {
        let durable: [NamespaceOp] = state.withLock { s in
            guard let last = s.entries.lastIndex(where: { $0.dirs.contains(ino) }) else { return [] }
            let done = Array(s.entries[...last])
            s.entries.removeFirst(last + 1)
            s.forgetTrash(of: done)
            return done
        }
        for op in durable { op.finalize(on: backing) }
        for op in durable where op.kind == .unlink || op.kind == .rename { dropIdleOverlay(ino: op.ino) }
        return durable.map(\.seq)
    }
}

/// An errno value carried through Result (any value, unlike the vocabulary's `Errno` of injectable names).
struct ErrnoCode: Error, Sendable {
    let rawValue: Int32
}
