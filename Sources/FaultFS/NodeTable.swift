import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The low-level API's inode table: the node ids the kernel knows, each with the name it was last reached by
/// (parent node and entry name) and the backing inode it stood for then, counted by lookups so `forget` can
/// drop it. Like libfuse's high-level layer, a node is a name's: each hard link is its own node, and a node
/// whose name went away (unlink, replaced by a rename, undone by a crash) keeps its id, without a name, until
/// the kernel forgets it; calls on it are then served through an open handle of its backing inode (fstat of an
/// open unlinked file). Node ids are never reused within a mount, so the generation is constant.
final class NodeTable: Sendable {
    static let rootID: UInt64 = 1
    static let generation: UInt64 = 1

    struct Node: Sendable {
        var parent: UInt64
        /// Nil once the name no longer leads here.
        var name: String?
        /// The backing inode the name led to at the last lookup.
        var ino: UInt64
        /// Lookups the kernel holds (each reply_entry/reply_create adds one, forget removes).
        var lookups: UInt64
        /// An O_PATH descriptor of the backing inode, taken just before an unlink or a rename removed the
        /// node's name (-1 otherwise; see `anchor`).
        var anchor: Int32 = -1
        /// The mount path the node had when it was anchored (for rules and the op log once it has no name).
        var anchorPath: String? = nil
    }

    private struct NameKey: Hashable {
        let parent: UInt64
        let name: String
    }

    private struct Table: Sendable {
        var nodes: [UInt64: Node]
        var byName: [NameKey: UInt64] = [:]
        /// Live nodes per backing inode (hard links: several), to invalidate every node of an inode.
        var byIno: [UInt64: Set<UInt64>] = [:]
        var next: UInt64 = NodeTable.rootID + 1
        var peak = 1

        mutating func detachName(of id: UInt64) {
            guard let n = nodes[id], let name = n.name else { return }
            let key = NameKey(parent: n.parent, name: name)
            if byName[key] == id { byName.removeValue(forKey: key) }
            nodes[id]?.name = nil
        }

        mutating func remove(_ id: UInt64) {
            detachName(of: id)
            guard let n = nodes.removeValue(forKey: id) else { return }
            if n.anchor >= 0 { close(n.anchor) }
            byIno[n.ino]?.remove(id)
            if byIno[n.ino]?.isEmpty == true { byIno.removeValue(forKey: n.ino) }
        }
    }

    private let table: Mutex<Table>

    init(rootIno: UInt64) {
        table = Mutex(Table(nodes: [NodeTable.rootID: Node(parent: NodeTable.rootID, name: nil, ino: rootIno, lookups: 1)],
                            byIno: [rootIno: [NodeTable.rootID]]))
    }

    /// Mount path of a node ("/" for the root), nil when it or an ancestor has no name.
    func path(_ id: UInt64) -> String? {
        table.withLock { t in
            var parts: [String] = []
            var cur = id
            while cur != NodeTable.rootID {
                guard let n = t.nodes[cur], let name = n.name else { return nil }
                parts.append(name)
                cur = n.parent
            }
            return "/" + parts.reversed().joined(separator: "/")
        }
    }

    /// The backing inode a node stands for.
    func ino(_ id: UInt64) -> UInt64? { table.withLock { $0.nodes[id]?.ino } }

    /// A lookup (or create) reached `name` in `parent` and found backing inode `ino`: the node for it, with one
    /// more lookup. A name that now leads to another inode (changed behind the kernel's back, by a crash) gets a
    /// new node; the old one keeps its id without a name until forgotten.
    func lookedUp(parent: UInt64, name: String, ino: UInt64) -> UInt64 {
        table.withLock { t in
            let key = NameKey(parent: parent, name: name)
            if let id = t.byName[key], t.nodes[id]?.ino == ino {
                t.nodes[id]!.lookups += 1
                return id
            }
            if let old = t.byName[key] { t.detachName(of: old) }
            let id = t.next
            t.next += 1
            t.nodes[id] = Node(parent: parent, name: name, ino: ino, lookups: 1)
            t.byName[key] = id
            t.byIno[ino, default: []].insert(id)
            t.peak = max(t.peak, t.nodes.count)
            return id
        }
    }

    /// The kernel dropped `count` lookups of `id`; at zero the node is gone (the root never goes).
    func forget(_ id: UInt64, _ count: UInt64) {
        guard id != NodeTable.rootID else { return }
        table.withLock { t in
            guard let n = t.nodes[id] else { return }
            if n.lookups > count {
                t.nodes[id]!.lookups = n.lookups - count
            } else {
                t.remove(id)
            }
        }
    }

    /// `name` in `parent` no longer exists (unlink, rmdir, a lookup that found nothing).
    func removeName(parent: UInt64, name: String) {
        table.withLock { t in
            if let id = t.byName[NameKey(parent: parent, name: name)] { t.detachName(of: id) }
        }
    }

    /// A rename moved the node named `name` in `parent` to `newName` in `newParent`, replacing whatever was
    /// there; with `exchange` the two swap names.
    func renamed(parent: UInt64, name: String, newParent: UInt64, newName: String, exchange: Bool) {
        table.withLock { t in
            let from = NameKey(parent: parent, name: name), to = NameKey(parent: newParent, name: newName)
            let moving = t.byName.removeValue(forKey: from)
            let victim = t.byName.removeValue(forKey: to)
            if let victim {
                if exchange {
                    t.nodes[victim]?.parent = parent
                    t.nodes[victim]?.name = name
                    t.byName[from] = victim
                } else {
                    t.nodes[victim]?.name = nil
                }
            }
            if let moving {
                t.nodes[moving]?.parent = newParent
                t.nodes[moving]?.name = newName
                t.byName[to] = moving
            }
        }
    }

    /// The node named `name` in `parent`, if the kernel may hold it.
    func child(_ parent: UInt64, _ name: String) -> UInt64? {
        table.withLock { $0.byName[NameKey(parent: parent, name: name)] }
    }

    /// Parent node and name of a mount path, when every directory above it is a known node.
    func locate(_ path: String) -> (parent: UInt64, name: String)? {
        let parts = path.split(separator: "/").map(String.init)
        guard let last = parts.last else { return nil }
        return table.withLock { t in
            var cur = NodeTable.rootID
            for p in parts.dropLast() {
                guard let next = t.byName[NameKey(parent: cur, name: p)] else { return nil }
                cur = next
            }
            return (cur, last)
        }
    }

    /// The other live nodes of `id`'s backing inode (its hard links' names), usually none.
    func siblings(of id: UInt64) -> [UInt64] {
        table.withLock { t in
            guard let ino = t.nodes[id]?.ino, let all = t.byIno[ino], all.count > 1 else { return [] }
            return all.filter { $0 != id }
        }
    }

    /// Keeps `fd` (an O_PATH descriptor of the node's backing inode, opened while its name still led there) so
    /// the node can still be opened and stat'ed once an unlink or a rename took the name away: a process whose
    /// path walk reached the node before the change opens it natively (the dentry pins the inode), as
    /// libfuse's passthrough_ll serves every node through such a descriptor. Closed when the kernel forgets
    /// the node; a node anchored already keeps its first descriptor and `fd` is closed.
    func anchor(_ id: UInt64, fd: Int32, path: String) {
        let keep: Bool = table.withLock { t in
            guard let n = t.nodes[id], n.anchor < 0 else { return false }
            t.nodes[id]!.anchor = fd
            t.nodes[id]!.anchorPath = path
            return true
        }
        if !keep { close(fd) }
    }

    /// The mount path a node had when it was anchored, when it has no name now.
    func anchorPath(_ id: UInt64) -> String? { table.withLock { $0.nodes[id]?.anchorPath } }

    /// Runs `body` with the node's anchor descriptor (nil when it has none), under the table's lock so that a
    /// `forget` cannot close it meanwhile.
    func withAnchor<T>(_ id: UInt64, _ body: (Int32) -> T) -> T? {
        table.withLock { t in
            guard let fd = t.nodes[id]?.anchor, fd >= 0 else { return nil }
            return body(fd)
        }
    }

    /// Closes every anchor (shutdown).
    func closeAnchors() {
        table.withLock { t in
            for (id, n) in t.nodes where n.anchor >= 0 {
                close(n.anchor)
                t.nodes[id]!.anchor = -1
            }
        }
    }

    /// Every live node of a backing inode.
    func nodes(ofIno ino: UInt64) -> [UInt64] { table.withLock { Array($0.byIno[ino] ?? []) } }

    /// Every live node id.
    var allIDs: [UInt64] { table.withLock { Array($0.nodes.keys) } }

    /// Live nodes now and at most (the memory the table holds is proportional to these).
    var counts: (live: Int, peak: Int) { table.withLock { ($0.nodes.count, $0.peak) } }
}
