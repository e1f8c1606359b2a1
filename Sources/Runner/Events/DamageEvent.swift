import Checks
import Foundation
import Scenario
import SeededRandomness
import StoreModel

/// `damage: {target, kind, where}`: damages a backup's files (or the live store's) at rest, in place, every choice
/// (page, byte, bit, cut, attachment) drawn from the scenario's seed, and records what it did (`DamageRecord`).
/// Before damaging a backup it keeps a copy of the backup as it was, which the restore of the damaged backup is
/// compared with (`restore-detects-damage`). Plain file I/O in the runner: no process of the run is involved, as
/// a disk or a sync service that corrupts a file involves none.
struct DamageEvent: RunEventKind {
    var kinds: [String] { ["damage"] }

    func run(_ event: DueEvent, _ context: EventContext) throws -> EventOutcome {
        guard let index = event.index, let step = event.step else { return EventOutcome() }
        return EventOutcome(entries: [.damage(try damage(index, step, context))])
    }

    /// Damages what the entry names and returns what it did (or why it could not).
    func damage(_ index: Int, _ step: Scenario.Step, _ context: EventContext) throws -> DamageRecord {
        let name = "damage-\(index)"
        let kind = step.strategy
        let place = step.damage?.place
        var damage = DamageRecord(name: name, index: index, kind: kind, target: "live", place: place?.rawValue, at: context.now(), applied: false)
        var store = context.live
        if case .backup(let n) = step.damage?.target {
            guard let backup = context.recorded().steps.last(where: { $0.index == n && $0.backup != nil }), let path = backup.backup?.store.path else {
                damage.target = "backup-\(n)"
                damage.reason = "schedule[\(n)] left no completed backup to damage"
                context.note(name, .note, damage.summary)
                return damage
            }
            damage.target = backup.name
            store = URL(fileURLWithPath: path)
            // The backup as it was, for the comparison with what a restore of the damaged one gives back.
            let copy = context.scratch.appendingPathComponent("\(name)-undamaged", isDirectory: true)
            try? FileManager.default.removeItem(at: copy)
            try FileManager.default.copyItem(at: store.deletingLastPathComponent(), to: copy)
            damage.undamagedCopy = copy.appendingPathComponent(store.lastPathComponent).path
        }
        var random = SeededRandom(seed: context.scenario.seed, label: name)
        do {
            try DamageBytes.apply(kind: kind, place: place, store: store, random: &random, into: &damage)
        } catch {
            damage.applied = false
            damage.reason = "\(error)"
        }
        context.note(name, .fault, damage.summary)
        return damage
    }
}

/// The damage itself: which bytes of which file, drawn from `random`.
enum DamageBytes {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func apply(kind: String, place: Scenario.Damage.Place?, store: URL, random: inout SeededRandom, into damage: inout DamageRecord) throws {
        let files = StoreFiles(store)
        let folder = store.deletingLastPathComponent()
        func relative(_ url: URL) -> String { String(url.path.dropFirst(folder.path.count + 1)) }
        switch kind {
        case "drop-wal":
            guard let size = fileSize(files.wal) else { throw Failure(description: "no -wal beside \(store.lastPathComponent) to remove") }
            try FileManager.default.removeItem(at: files.wal)
            (damage.file, damage.fileBytes, damage.applied) = (relative(files.wal), size, true)
        case "drop-attachment":
            // The attachments the store's rows name, in their owners' order (the file names are fresh UUIDs each
            // run, the owners follow the seed), that are there; else whatever files are there, by name.
            let present = Set(((try? FileManager.default.contentsOfDirectory(atPath: files.externalDataFolder.path)) ?? []).filter { !$0.hasPrefix(".") })
            let owned = ((try? ExternalDataFiles.namesInOwnerOrder(store)) ?? []).filter { present.contains($0.file) }
            let names: [(owner: String?, file: String)] = owned.isEmpty ? present.sorted().map { (nil, $0) } : owned.map { ($0.owner, $0.file) }
            guard !names.isEmpty else { throw Failure(description: "no attachment file in \(relative(files.externalDataFolder)) to remove") }
            let chosen = names[Int(random.next() % UInt64(names.count))]
            damage.owner = chosen.owner
            let file = files.externalDataFolder.appendingPathComponent(chosen.file)
            damage.fileBytes = fileSize(file)
            try FileManager.default.removeItem(at: file)
            (damage.file, damage.applied) = (relative(file), true)
        default:
            try inFile(kind: kind, place: place ?? .main, files: files, random: &random, into: &damage)
            damage.file = relative(place == .wal ? files.wal : files.database)
        }
    }

    /// bit-flip, zero-page and truncate: a page after the first of the database (`main`), its first page
    /// (`header`), or a frame of the -wal (`wal`).
    static func inFile(kind: String, place: Scenario.Damage.Place, files: StoreFiles, random: inout SeededRandom, into damage: inout DamageRecord) throws {
        let url = place == .wal ? files.wal : files.database
        guard let size = fileSize(url), size > 0 else { throw Failure(description: "no \(url.lastPathComponent) (or an empty one) to damage") }
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        func read(_ offset: Int, _ count: Int) throws -> [UInt8] {
            try handle.seek(toOffset: UInt64(offset))
            return [UInt8](try handle.read(upToCount: count) ?? Data())
        }
        func draw(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        // The unit damaged: (first byte, bytes, 1-based number) of a page, a frame's page, or the header.
        let unit: (offset: Int, bytes: Int, number: Int)
        switch place {
        case .wal:
            let header = try read(0, 32)
            guard header.count == 32 else { throw Failure(description: "the -wal is shorter than its 32-byte header") }
            let pageSize = header[8..<12].reduce(0) { $0 << 8 | Int($1) }
            let frames = pageSize > 0 ? (size - 32) / (24 + pageSize) : 0
            guard frames > 0 else { throw Failure(description: "the -wal holds no frame") }
            let frame = draw(1...frames)
            // A frame is a 24-byte header and the page; the damage goes into the page.
            unit = (32 + (frame - 1) * (24 + pageSize) + 24, pageSize, frame)
        case .main, .header:
            let header = try read(0, 100)
            let raw = header.count >= 18 ? Int(header[16]) << 8 | Int(header[17]) : 0
            let pageSize = raw == 1 ? 65_536 : raw
            guard pageSize >= 512 else { throw Failure(description: "\(url.lastPathComponent) has no SQLite header to find its pages by") }
            let pages = size / pageSize
            if place == .header {
                unit = (0, kind == "zero-page" ? pageSize : 100, 1)
            } else {
                guard pages >= 2 else { throw Failure(description: "\(url.lastPathComponent) has no page after the first") }
                let page = draw(2...pages)
                unit = ((page - 1) * pageSize, pageSize, page)
            }
        }
        damage.fileBytes = size
        damage.page = unit.number
        switch kind {
        case "bit-flip":
            let offset = unit.offset + draw(0...(unit.bytes - 1))
            let bit = draw(0...7)
            let before = try read(offset, 1)
            guard let byte = before.first else { throw Failure(description: "byte \(offset) is past the end of \(url.lastPathComponent)") }
            try handle.seek(toOffset: UInt64(offset))
            try handle.write(contentsOf: Data([byte ^ UInt8(1 << bit)]))
            (damage.offset, damage.length, damage.bit) = (offset, 1, bit)
            (damage.before, damage.after) = (hex([byte]), hex([byte ^ UInt8(1 << bit)]))
        case "zero-page":
            let length = min(unit.bytes, size - unit.offset)
            damage.before = hex(try read(unit.offset, 16))
            try handle.seek(toOffset: UInt64(unit.offset))
            try handle.write(contentsOf: Data(count: length))
            (damage.offset, damage.length, damage.after) = (unit.offset, length, hex([UInt8](repeating: 0, count: min(16, length))))
        default:
            // A cut at a page (frame) boundary, keeping at least the first; inside the header for `header`.
            let cut: Int
            switch place {
            case .header: cut = draw(0...99)
            case .wal: cut = unit.offset - 24
            case .main: cut = unit.offset
            }
            damage.before = hex(try read(cut, 16))
            try handle.truncate(atOffset: UInt64(cut))
            (damage.offset, damage.length) = (cut, size - cut)
        }
        try handle.synchronize()
        damage.applied = true
    }

    static func fileSize(_ url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
    }

    static func hex(_ bytes: [UInt8]) -> String { Hex.string(bytes) }
}
