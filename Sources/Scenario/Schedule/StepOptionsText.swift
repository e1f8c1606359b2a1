import Foundation

// Temporary, for one commit: the runner still reads the keys as the text map it read before the kinds' keys were
// typed (`Scenario.StepDetails`); this gives it that map, built from the typed keys, until its reads are typed
// too (the next commit removes this file).
extension Scenario.Step {
    /// The entry's typed keys as the text the parser used to store.
    public var options: [String: String] {
        var text: [String: String] = [:]
        switch details {
        case .none: break
        case .damage(let damage):
            text["target"] = damage.target.text
            text["where"] = damage.place?.rawValue
        case .sidecar(let action): text["action"] = action.rawValue
        case .relocate(let relocation):
            text["to"] = relocation.to
            if relocation.cloudKitDuringMove { text["cloudkit"] = "on" }
        case .cleanup(let cleanup):
            text["container"] = cleanup.container
            text["unless_open"] = cleanup.unlessOpen.map(String.init)
        case .device(let device): text["objects"] = device.objects.map(String.init)
        case .copy(let copy):
            if copy.coordinator == .app { text["coordinator"] = "app" }
            if copy.savesAfterMigrate == .fail { text["saves_after_migrate"] = "fail" }
        }
        return text
    }
}

extension DamageEntry {
    /// N of `backup N`, or nil.
    public static func backupIndex(_ target: String) -> Int? {
        if case .backup(let n) = Scenario.Damage.Target(text: target) { n } else { nil }
    }
}
