import ChildProcesses
import Foundation

extension StoreVolume {
    /// The sync shim for children working on this volume: only a FaultFS volume needs one (on a plain
    /// directory the kernel's own sync does the work), and only when the library was built beside `executable`
    /// (`swift build` builds it; `LIFEBOAT_SYNC_SHIM` names another). Nil otherwise.
    func syncShim(besides executable: URL) -> SyncShim? {
        guard let faultFS = self as? FaultFSVolume,
              let library = SyncShim.locateLibrary(besides: executable.path) else { return nil }
        return SyncShim(library: library, socket: faultFS.mount.controlSocket.path, mountpoint: faultFS.mount.mountpoint.path)
    }
}
