#if canImport(Glibc)
import Glibc
#endif
import CLifeboatSys

/// A directory-entry change already applied to the backing directory but not durable until an fsync of
/// the directory (or of a later-changed directory: see `FaultFileSystem.fsyncdir`). Keeps what undoing it
/// at a crash needs: the inode it concerns (undo only touches a name still bound to that inode) and, for
/// removals, the trash entry holding the removed file or directory.
struct NamespaceOp: Sendable {
    enum Kind: String, Sendable {
        case create, mkdir, symlink, link, unlink, rmdir, rename, exchange

        /// How the op log names the change.
        var logged: LoggedOp {
            switch self {
            case .create: .create
            case .mkdir: .mkdir
            case .symlink: .symlink
            case .link: .link
            case .unlink: .unlink
            case .rmdir: .rmdir
            case .rename: .rename
            case .exchange: .exchange
            }
        }
    }

    let seq: UInt64
    let kind: Kind
    /// New entry (create/mkdir/symlink/link), removed entry (unlink/rmdir), source (rename/exchange).
    let path: String
    /// Target of rename/exchange.
    let path2: String?
    /// Inode of the created/removed/moved entry.
    let ino: UInt64
    /// Inodes of the parent directories involved.
    let dirs: [UInt64]
    /// Trash entry (relative to the backing root) with the removed entry or the rename's replaced victim.
    let trash: String?
    /// The inode whose link `trash` holds (the removed entry's, the victim's), for `DurabilityState.trashByIno`.
    var trashIno: UInt64? = nil

    /// Reverts the change on the backing directory. Best effort: skipped when the names no longer match.
    func undo(on b: Backing) {
        switch kind {
        case .create, .mkdir, .symlink, .link:
            let r = b.rel(path)
            guard let st = b.lstat(r), UInt64(st.st_ino) == ino else { return }
            if isDirectory(st) { b.removeTree(r) } else { _ = unlinkat(b.dirFD, r, 0) }
        case .unlink, .rmdir:
            if let t = trash { _ = b.rename(t, b.rel(path), flags: UInt32(LB_RENAME_NOREPLACE)) }
        case .rename:
            guard let p2 = path2 else { return }
            if let st = b.lstat(b.rel(p2)), UInt64(st.st_ino) == ino {
                _ = b.rename(b.rel(p2), b.rel(path), flags: UInt32(LB_RENAME_NOREPLACE))
            }
            if let t = trash { _ = b.rename(t, b.rel(p2), flags: UInt32(LB_RENAME_NOREPLACE)) }
        case .exchange:
            guard let p2 = path2 else { return }
            if let st = b.lstat(b.rel(p2)), UInt64(st.st_ino) == ino {
                _ = b.rename(b.rel(path), b.rel(p2), flags: UInt32(LB_RENAME_EXCHANGE))
            }
        }
    }

    /// Called when the change became durable (or survived a crash): the removed entry is gone for good.
    func finalize(on b: Backing) {
        if let t = trash { b.removeTree(t) }
    }
}
