import CFuse3
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Options of `faultfs mount`.
public struct DaemonOptions: Sendable, Equatable {
    public var backing: String
    public var mountpoint: String
    /// Control socket path; default `<mountpoint>.ctl` (next to the mountpoint, outside the mount).
    public var control: String?
    public var log: String?
    public var logData = false
    public var seed: UInt64 = 0
    /// Upper bound on FUSE worker threads (the loop is always multithreaded).
    public var maxThreads = 16
    /// Shut down cleanly when the process that started the daemon dies (even by SIGKILL), so a killed test
    /// runner leaves no mount behind.
    public var exitWithParent = false
    /// RAM for unsynced bytes across the volume; past it they go to the spill file (see `SpillStore`).
    public var memoryBudget: Int64 = 256 << 20
    /// Directory of the spill file; default the backing directory's hidden trash (same file system).
    public var spillDirectory: String?
    /// Keep the page cache on every file so programs can mmap them MAP_SHARED (see docs/faultfs.md).
    public var mmap = false
    /// Whether a durable operation also flushes the host device (see `HostSync`).
    public var hostSync: HostSync = .defaultSetting
    /// What an fsync failed with EIO leaves in the file (see `FsyncFailure`); nil: the data stays pending.
    public var fsyncFailure: FsyncFailure?
    /// Serve with libfuse's high-level (path) API, as before issue 31: no kernel caching, and `fstat` of an open
    /// unlinked file fails with ESTALE. The default is the low-level API (node ids, see `NodeTable`).
    public var highLevel = false

    public init(backing: String, mountpoint: String, control: String? = nil, log: String? = nil,
                logData: Bool = false, seed: UInt64 = 0, maxThreads: Int = 16) {
        self.backing = backing; self.mountpoint = mountpoint; self.control = control; self.log = log
        self.logData = logData; self.seed = seed; self.maxThreads = maxThreads
    }

    public var controlPath: String { control ?? StaleMounts.canonical(mountpoint) + ".ctl" }
}

/// The daemon: mounts, runs the multithreaded FUSE loop in the foreground, serves the control socket,
/// and on shutdown (verb or SIGTERM/SIGINT) makes everything durable, closes its files and unmounts.
public enum FaultFSDaemon {
    public static func run(_ o: DaemonOptions) -> Int32 {
        func fail(_ message: String) -> Int32 {
            FileHandle.standardError.write(Data("faultfs: \(message)\n".utf8))
            return 1
        }
        var st = stat()
        guard stat(o.backing, &st) == 0, isDirectory(st) else { return fail("backing \(o.backing) is not a directory") }
        StaleMounts.clean(under: o.mountpoint)
        guard stat(o.mountpoint, &st) == 0, isDirectory(st) else { return fail("mountpoint \(o.mountpoint) is not a directory") }
        let backingRoot = StaleMounts.canonical(o.backing)
        let mountRoot = StaleMounts.canonical(o.mountpoint)
        if mountRoot == backingRoot || mountRoot.hasPrefix(backingRoot + "/") || backingRoot.hasPrefix(mountRoot + "/") {
            return fail("backing and mountpoint must not contain each other")
        }
        if o.controlPath.utf8.count > UnixSocket.maxPathLength {
            return fail("control socket path too long (max \(UnixSocket.maxPathLength) bytes): \(o.controlPath)")
        }
        if let log = o.log, StaleMounts.canonical(log).hasPrefix(mountRoot + "/") { return fail("the log must be outside the mount") }

        let fs: FaultFileSystem
        do {
            let backing = try Backing(root: backingRoot)
            let log = try o.log.map { try OpLogWriter(path: $0, withData: o.logData) }
            let store = try SpillStore.open(directory: o.spillDirectory ?? "\(backingRoot)/\(Backing.trashName)", budget: o.memoryBudget)
            fs = FaultFileSystem(backing: backing, mountpoint: mountRoot, seed: o.seed, log: log, store: store, keepPageCache: o.mmap, hostSync: o.hostSync,
                                 fsyncFailure: o.fsyncFailure)
        } catch {
            return fail("\(error)")
        }
        // Only the caller's umask applies to new entries (FaultFileSystem.masked), never the daemon's.
        umask(0)
        let context = Unmanaged.passRetained(fs)
        defer { context.release() }

        var options = "fsname=faultfs,subtype=faultfs,default_permissions"
        if geteuid() == 0 { options += ",allow_other" }
        guard let mounted = o.highLevel ? mountHighLevel(fs, context, options, mountRoot) : mountLowLevel(fs, context, options, mountRoot) else {
            return fail("cannot mount on \(mountRoot) (is /dev/fuse available?)")
        }
        let session = mounted.session
        // A daemon spawned from a threaded process inherits the spawning thread's signal mask, which may block
        // SIGTERM; the shutdown verb stops the loop with SIGTERM, so make sure it can arrive.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&unblock, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        fuse_set_signal_handlers(session)
        fs.loopThread.store(UInt(pthread_self()), ordering: .relaxed)

        let server: ControlServer
        do {
            server = try ControlServer(path: o.controlPath) { fs.handleControl($0) }
        } catch {
            fuse_remove_signal_handlers(session)
            mounted.finish()
            return fail("\(error)")
        }
        fs.logOp(.mount, mountRoot, result: 0) { $0.path2 = backingRoot; $0.detail = "seed=\(o.seed)" }
        if o.exitWithParent {
            let parent = getppid()
            Thread.detachNewThread {
                while !fs.stopping.load(ordering: .relaxed) {
                    if getppid() != parent {
                        FileHandle.standardError.write(Data("faultfs: parent \(parent) exited, shutting down\n".utf8))
                        fs.requestStop()
                        return
                    }
                    usleep(200_000)
                }
            }
        }
        FileHandle.standardError.write(Data("faultfs: mounted \(backingRoot) on \(mountRoot), control \(o.controlPath), pid \(getpid())\n".utf8))

        let config = fuse_loop_cfg_create()
        fuse_loop_cfg_set_max_threads(config, UInt32(o.maxThreads))
        let loopResult = mounted.loop(config)
        fuse_loop_cfg_destroy(config)

        // Clean unmount: like a real FS, everything becomes durable; then close every file, then unmount.
        server.stop()
        fs.fuseHandle.store(0, ordering: .relaxed)
        fs.lowLevelSession.store(0, ordering: .releasing)
        _ = fs.syncAll()
        fs.closeAllHandles()
        fs.logOp(.unmount, mountRoot, result: 0) { $0.detail = "loop=\(loopResult)" }
        fs.log?.close()
        fuse_remove_signal_handlers(session)
        mounted.finish()
        FileHandle.standardError.write(Data("faultfs: unmounted \(mountRoot)\n".utf8))
        return 0
    }

    /// A mounted FUSE session: its loop and its unmount-and-destroy.
    struct Mounted {
        let session: OpaquePointer
        let loop: (OpaquePointer?) -> Int32
        let finish: () -> Void
    }

    static func fuseArgs<T>(_ options: String, _ body: (inout fuse_args) -> T) -> T {
        let argv: [UnsafeMutablePointer<CChar>?] = (["faultfs", "-o", options] as [String]).map { strdup($0) }
        defer { for p in argv { free(p) } }
        var args = fuse_args(argc: Int32(argv.count), argv: nil, allocated: 0)
        return argv.withUnsafeBufferPointer { buf in
            args.argv = UnsafeMutablePointer(mutating: buf.baseAddress)
            let r = body(&args)
            fuse_opt_free_args(&args)
            return r
        }
    }

    /// The low-level session (node ids, kernel caching with notifications; the default).
    static func mountLowLevel(_ fs: FaultFileSystem, _ context: Unmanaged<FaultFileSystem>, _ options: String,
                              _ mountRoot: String) -> Mounted? {
        var ops = LowLevelOperations.make()
        let made: OpaquePointer? = fuseArgs(options) { cfuse_session_new(&$0, &ops, context.toOpaque()) }
        guard let se = made else { return nil }
        guard fuse_session_mount(se, mountRoot) == 0 else {
            fuse_session_destroy(se)
            return nil
        }
        fs.lowLevelSession.store(UInt(bitPattern: se), ordering: .releasing)
        return Mounted(session: se, loop: { cfuse_session_loop_mt(se, $0) }, finish: {
            fuse_session_unmount(se)
            fuse_session_destroy(se)
        })
    }

    /// The high-level session of `--high-level` (paths resolved by libfuse, no kernel caching).
    static func mountHighLevel(_ fs: FaultFileSystem, _ context: Unmanaged<FaultFileSystem>, _ options: String,
                               _ mountRoot: String) -> Mounted? {
        highLevelAPIActive.store(true, ordering: .relaxed)
        var ops = FuseOperations.make()
        let made: OpaquePointer? = fuseArgs(options) { cfuse_new(&$0, &ops, context.toOpaque()) }
        guard let fuse = made else { return nil }
        guard fuse_mount(fuse, mountRoot) == 0 else {
            fuse_destroy(fuse)
            return nil
        }
        fs.fuseHandle.store(UInt(bitPattern: fuse), ordering: .relaxed)
        return Mounted(session: fuse_get_session(fuse), loop: { cfuse_loop_mt(fuse, $0) }, finish: {
            fuse_unmount(fuse)
            fuse_destroy(fuse)
        })
    }
}
