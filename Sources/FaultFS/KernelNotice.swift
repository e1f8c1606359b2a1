import CFuse3
#if canImport(Glibc)
import Glibc
#endif

/// A kernel cache entry FaultFS changed behind the kernel's back: a node's attributes (and cached pages), or a
/// directory entry. Attribute and entry timeouts are above zero on the low-level API, so every such change
/// must be told to the kernel (fuse_lowlevel_notify_inval_inode / _inval_entry).
enum KernelNotice: Sendable, Hashable {
    /// A node's attributes and cached pages.
    case inode(UInt64)
    /// A node's attributes only (no page is touched, so the kernel takes no lock a request may hold).
    case attributes(UInt64)
    case entry(parent: UInt64, name: String)
}

extension FaultFileSystem {
    /// Drops the kernel's cached attributes, pages and entries for what changed behind its back: the given mount
    /// paths (entry and node), every node of the given backing inodes, or, with `everything` (a crash), every
    /// node the kernel holds. Outside a request (the control thread: crash) the notifications go out before
    /// this returns, so once `crash` has replied no process can see a stale size or name; inside a request they
    /// go out right after its reply (see `FuseRequestScope`).
    func invalidateKernelCaches(_ paths: [String], inos: [UInt64] = [], everything: Bool = false) {
        let high = fuseHandle.load(ordering: .relaxed)
        if high != 0, let f = OpaquePointer(bitPattern: high) {
            for p in Set(paths) where !p.isEmpty { _ = fuse_invalidate_path(f, p) }
            return
        }
        var notices: [KernelNotice] = []
        var seen = Set<KernelNotice>()
        func add(_ n: KernelNotice) { if seen.insert(n).inserted { notices.append(n) } }
        for p in paths where !p.isEmpty {
            guard let (parent, name) = nodes.locate(p) else { continue }
            add(.entry(parent: parent, name: name))
            if let id = nodes.child(parent, name) { add(.inode(id)) }
        }
        for ino in inos { for id in nodes.nodes(ofIno: ino) { add(.inode(id)) } }
        if everything { for id in nodes.allIDs { add(.inode(id)) } }
        notify(notices)
    }

    /// After a crash (on the control thread): every node's attributes and pages and the changed entries; then,
    /// once every entry request that was in flight has replied (at most 2 s: a delay rule can hold one), the
    /// changed entries again, in case such a reply carried a name from before the crash (see `producingEntry`).
    func invalidateAfterCrash(_ paths: [String]) {
        invalidateKernelCaches(paths, everything: true)
        guard lowLevelSession.load(ordering: .relaxed) != 0 else { return }
        var waited = 0
        while entryRequestsInFlight.load(ordering: .sequentiallyConsistent) > 0 && waited < 20_000 {
            usleep(100)
            waited += 1
        }
        invalidateKernelCaches(paths)
    }

    /// A change made through node `id` (its attributes or contents) also changed its backing inode's other names,
    /// which the kernel holds as other nodes with their own cached attributes.
    func notifySiblings(_ id: fuse_ino_t) {
        notify(nodes.siblings(of: UInt64(id)).map { .inode($0) })
    }

    /// Sends `notices` now, or, while serving a request, after its reply; there the attributes go out at once
    /// as well (attribute-only: the kernel's handling takes only a spinlock, so it cannot wait for the request
    /// being served), so the calling process sees the new size or mode as soon as its call returns.
    func notify(_ notices: [KernelNotice]) {
        guard !notices.isEmpty else { return }
        if let scope = FuseRequestScope.current {
            sendNotices(notices.compactMap { if case .inode(let id) = $0 { return .attributes(id) } else { return nil } })
            scope.notices += notices
        } else {
            sendNotices(notices)
        }
    }

    /// Writes the notifications to the kernel (never from inside a request that has not replied yet).
    func sendNotices(_ notices: [KernelNotice]) {
        let bits = lowLevelSession.load(ordering: .acquiring)
        guard bits != 0, let se = OpaquePointer(bitPattern: bits) else { return }
        for n in notices {
            switch n {
            case .inode(let id):
                // -ENOENT: the kernel no longer holds the node; nothing to drop.
                _ = fuse_lowlevel_notify_inval_inode(se, fuse_ino_t(id), 0, 0)
            case .attributes(let id):
                _ = fuse_lowlevel_notify_inval_inode(se, fuse_ino_t(id), -1, 0)
            case .entry(let parent, let name):
                _ = name.withCString { fuse_lowlevel_notify_inval_entry(se, fuse_ino_t(parent), $0, strlen($0)) }
            }
        }
    }
}
