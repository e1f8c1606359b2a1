import Foundation

/// The LD_PRELOAD library that turns a child's sync(2) and syncfs(2) into an acknowledged FaultFS `sync-all`.
///
/// Why: the kernel does not pass syncfs on to a FUSE daemon (only virtiofs gets it), so without the shim FaultFS
/// never learns that a program made everything durable, and a restore script ending in `sync` looks like one
/// that never synced. The library (`libLifeboatSyncShim.so`, built from `Sources/CLifeboatSyncShim`) calls the
/// real sync first (the kernel then writes dirty pages back to the daemon), then sends `{"verb":"sync-all"}` on
/// the control socket and waits for the reply before the call returns. It is inherited by every descendant
/// that keeps the environment and links libc dynamically; docs/faultfs.md says what it cannot reach.
public struct SyncShim: Sendable, Equatable {
    /// The FaultFS control socket the shim talks to.
    public static let socketVariable = "LIFEBOAT_FAULTFS_SOCKET"
    /// The FaultFS mountpoint: syncfs(fd) only asks for `sync-all` when `fd` is on this file system.
    public static let mountVariable = "LIFEBOAT_FAULTFS_MOUNT"
    /// Overrides where the harness looks for the library.
    public static let libraryVariable = "LIFEBOAT_SYNC_SHIM"
    /// The library's file name, as SwiftPM builds the `LifeboatSyncShim` product.
    public static let libraryName = "libLifeboatSyncShim.so"

    public var library: String
    public var socket: String
    public var mountpoint: String

    public init(library: String, socket: String, mountpoint: String) {
        self.library = library
        self.socket = socket
        self.mountpoint = mountpoint
    }

    /// The variables a child gets: LD_PRELOAD with the library appended to any value it already has (a
    /// program may preload something of its own), and where FaultFS listens.
    public func environment(over base: [String: String]) -> [String: String] {
        var environment = base
        let preload = (base["LD_PRELOAD"] ?? "").split(separator: ":").map(String.init).filter { $0 != library }
        environment["LD_PRELOAD"] = (preload + [library]).joined(separator: ":")
        environment[Self.socketVariable] = socket
        environment[Self.mountVariable] = mountpoint
        return environment
    }

    /// Finds the library: `$LIFEBOAT_SYNC_SHIM`, else beside `executable` (SwiftPM puts products in one
    /// directory), else up to three directories above it. Nil when it was not built.
    public static func locateLibrary(besides executable: String) -> String? {
        if let path = ProcessInfo.processInfo.environment[libraryVariable], !path.isEmpty {
            return FileManager.default.isReadableFile(atPath: path) ? path : nil
        }
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(libraryName).path
            if FileManager.default.isReadableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }
}
