import Synchronization

/// Removals (an unlink, a rename over a file) applied to the backing directory but not yet replied to the kernel.
/// When the reply comes the kernel lowers its cached st_nlink of the node whose name went (fuse_entry_unlinked:
/// drop_nlink); FaultFS gives every hard link its own node, so that is the only node the kernel adjusts, and
/// FaultFS notifies the others. An attribute reply for that node computed after the backing change but taken in
/// before the kernel's own adjustment would count the removal twice: a file whose other name remained showed
/// st_nlink 0 to a concurrent stat. So until the reply, that node's st_nlink still counts the removed name (its
/// trash link is not discounted), as the kernel expects; every other node sees the removal at once. (A link
/// needs no hold: the kernel here, 6.18, does not raise the source's count itself; holding it left a stale 1
/// after link(2) returned. FaultFS refreshes it with a notification.) Held per low-level request
/// (`FuseRequestScope.linkHolds`) and released once it has replied; the high-level API holds nothing.
final class LinkCountHolds: Sendable {
    /// Node `node` lost its name to the trash entry `trash`.
    struct Hold: Sendable, Equatable {
        let node: UInt64
        let trash: String
    }

    private let held = Mutex<[UInt64: Set<String>]>([:])

    /// Holds `hold` until the calling low-level request has replied (nothing outside a request).
    func hold(_ hold: Hold) {
        guard let scope = FuseRequestScope.current else { return }
        held.withLock { _ = $0[hold.node, default: []].insert(hold.trash) }
        scope.linkHolds.append(hold)
    }

    func release(_ holds: [Hold]) {
        held.withLock { h in
            for hold in holds {
                h[hold.node]?.remove(hold.trash)
                if h[hold.node]?.isEmpty == true { h.removeValue(forKey: hold.node) }
            }
        }
    }

    /// For attributes of `node`: the trash entries not to discount yet.
    func pendingRemovals(of node: UInt64?) -> Set<String> {
        guard let node else { return [] }
        return held.withLock { $0[node] ?? [] }
    }
}
