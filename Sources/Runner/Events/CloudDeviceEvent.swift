import Checks
import ChildProcesses
import Foundation
import Reporting
import Scenario
import StoreModel

/// `account: sign-in|sign-out` and `device: NAME` (docs/cloudkit.md): the iCloud account signing in or out during
/// the run, and a second device on the same account with a store of its own, synced with the run's zone by
/// `lifeboat mirror` children as the live store is.
struct CloudDeviceEvent: RunEventKind {
    var kinds: [String] { ["account", "device"] }

    func run(_ event: DueEvent, _ context: EventContext) throws -> EventOutcome {
        guard let index = event.index, let step = event.step else { return EventOutcome() }
        if step.action.rawValue == "account" {
            try changeAccount(index, signIn: step.strategy == "sign-in", context)
            return EventOutcome()
        }
        return EventOutcome(entries: try useDevice(index, step, context))
    }

    func changeAccount(_ index: Int, signIn: Bool, _ context: EventContext) throws {
        let (scenario, note) = (context.scenario, context.note)
        let zone = try context.cloud.zone(scratch: context.scratch, scenario: scenario, note: note)
        try zone.setAccount(signIn ? .available : .unavailable)
        note("account-\(index)", .note, signIn ? "signed in to iCloud: syncs go through again" : "signed out of iCloud: the mirror's setup never completes, syncs sync nothing")
    }

    /// A second device's turn: its store is made on first use (its own objects), then synced with the zone.
    func useDevice(_ index: Int, _ step: Scenario.Step, _ context: EventContext) throws -> [RunRecord.Entry] {
        let (scenario, now, note) = (context.scenario, context.now, context.note)
        let device = step.strategy
        let zone = try context.cloud.zone(scratch: context.scratch, scenario: scenario, note: note)
        let name = "device-\(device)-\(index)"
        let store: URL
        if let made = context.cloud.deviceStores[device] {
            store = made
        } else {
            store = context.scratch.appendingPathComponent("devices/\(device)/Library.sqlite")
            let objects = scenario.deviceObjects(device)
            // The device's own objects: the seed and the device's name choose their identities.
            var generator = StoreGenerator(objects: objects, blobFraction: 0, seed: scenario.seed &* 131 &+ UInt64(device.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
            generator.cloudKit = true
            _ = try generator.generate(at: store)
            context.cloud.deviceStores[device] = store
            note(name, .note, "device \(device): a store of its own with \(objects) objects, on the same iCloud account")
        }
        let child = try context.children.start(name, executable: context.executable,
                                               arguments: try MirrorChild.arguments(name, store: store, zone: zone, seed: scenario.seed &* 37 &+ UInt64(index), context))
        let status = try context.children.wait(child, timeout: max(1, scenario.timeLimit - now()))
        let lastLine = child.output.split(separator: "\n").last.map(String.init) ?? ""
        guard status == 0 else {
            if (try? zone.readState().account) == .unavailable {
                note(name, .note, "device \(device) signed out: nothing synced")
                return []
            }
            return [.error("\(name): the device's sync did not complete: \(lastLine.prefix(400))")]
        }
        note(name, .note, "device \(device) synced: \(lastLine.prefix(200))")
        let label = "device \(device) after \(name)"
        // Read now, as this sync left the device's store and the zone (see `CloudStepEvent`).
        return [.sync(SyncMeasurement(label: label, name: name, device: device, store: Measure.store(store, label: label, state: false),
                                      zone: nil, consistency: Measure.cloud(store, zone: zone, deleted: [])))]
    }
}
