import Checks
import FaultFS
import Foundation
import Reporting
import Scenario

extension FaultFSVolume {
    /// The daemon's coverage counters as the report's table.
    public func runCoverage() throws -> RunCoverage {
        let (coverage, _) = try mount.coverage()
        return RunCoverage(rows: coverage.cells.map { .init(op: $0.op, fileClass: $0.fileClass, ops: $0.ops, matched: $0.matched, fired: $0.fired) },
                           crashPointsAvailable: coverage.persistencePoints, crashPointsExplored: coverage.crashes)
    }

    /// Whether a `crash` rule fired and froze the volume: the crash is due now.
    public func isFrozen() throws -> Bool { try mount.coverage().frozen }

    /// The first call each armed rule fired on, by rule id, with the offset and length from the op log when the
    /// volume keeps one, and the child that made it named through `name` (pid and ancestors to a child name).
    func faultHits(name: ([Int32]) -> String?) -> [String: FaultHit] {
        guard let statuses = try? mount.rules() else { return [:] }
        var records: [OpRecord] = []
        if let log = mount.log, statuses.contains(where: { $0.firstFire != nil }) {
            _ = try? mount.logMark("fault hits") // flushes the log
            // Decode only the lines a rule fired on (a long run's log holds many thousand records).
            let data = (try? Data(contentsOf: log)) ?? Data()
            let marker = Data("\"fault\":\"".utf8)
            for line in data.split(separator: UInt8(ascii: "\n")) where line.firstRange(of: marker) != nil {
                if let record = try? JSONDecoder().decode(OpRecord.self, from: Data(line)), record.fault != nil { records.append(record) }
            }
        }
        var hits: [String: FaultHit] = [:]
        for status in statuses {
            guard let id = status.rule.id, let call = status.firstFire else { continue }
            let record = records.first { $0.fault == id }
            hits[id] = FaultHit(op: record?.op.rawValue ?? call.op, path: call.path, offset: record?.offset, length: record?.length ?? (call.bytes > 0 ? Int64(call.bytes) : nil),
                                actor: name(call.pids), pid: call.pids.first, command: call.command)
            hits[id]?.at = call.at
        }
        return hits
    }
}

extension FaultFSVolume {
    /// Tells the daemon what disk it simulates (`faults.device`), so crashes tear as that disk would.
    public func configure(device: Scenario.Device?) throws {
        guard let device else { return }
        let profile = DeviceProfile(sector: device.sector, atomicWrite: device.atomicWrite, powersafeOverwrite: device.powersafeOverwrite)
        if let problem = profile.validationError() { throw RunError.environment("faults.device: \(problem)") }
        try mount.setDevice(profile)
    }
}
