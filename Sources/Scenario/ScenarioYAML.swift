import Foundation

/// Writes a scenario back as YAML in the same keys the parser reads, so `repro.yaml` replays exactly.
public enum ScenarioYAML {
    public static func render(_ s: Scenario) -> String {
        var out: [String] = []
        out.append("name: \(quote(s.name))")
        if !s.description.isEmpty { out.append("description: \(quote(s.description))") }
        out.append("seed: \(s.seed)")
        out.append("app_model: \(s.appModel)")
        if s.migrateAutomatically == s.inferMappingModel {
            out.append("lightweight_migration: \(s.lightweightMigration)")
        } else {
            out.append("lightweight_migration: {migrate_automatically: \(s.migrateAutomatically), infer_mapping_model: \(s.inferMappingModel)}")
        }
        if s.incompatibleStore != "fail" { out.append("incompatible_store: \(s.incompatibleStore)") }
        out.append("time_limit: \(s.timeLimit)")
        out.append("scheduler: \(s.scheduler)")
        out.append("store:")
        if s.store.fresh {
            out.append("  fresh: true")
        } else {
            out.append("  objects: \(s.store.objects)")
            out.append("  blob_fraction: \(s.store.blobFraction)")
            out.append("  blob_size: \(s.store.blobSize)")
        }
        out.append("  journal_mode: \(s.store.journalMode)")
        if s.store.autoVacuum != "none" { out.append("  auto_vacuum: \(s.store.autoVacuum)") }
        if s.store.history { out.append("  history: true") }
        if s.store.inheritance { out.append("  inheritance: true") }
        if s.store.cloudkit { out.append("  cloudkit: true") }
        if s.store.freeSpace > 0 { out.append("  free_space: \(s.store.freeSpace)") }
        if let from = s.store.from { out.append("  from: \(quote(from))") }
        out.append("writers:")
        out.append("  count: \(s.writers.count)")
        out.append("  transactions: \(s.writers.transactions)")
        out.append("  rate: \(s.writers.rate)")
        out.append("  blob_fraction: \(s.writers.blobFraction)")
        out.append("  blob_size: \(s.writers.blobSize)")
        out.append("  synchronous: \(s.writers.synchronous)")
        out.append("  checkpoint: \(s.writers.checkpoint)")
        if let v = s.writers.externalDataGrace { out.append("  external_data_grace: \(v)") }
        if s.writers.syncExternalData { out.append("  sync_external_data: true") }
        if s.writers.acrossRestore != "keep" { out.append("  across_restore: \(s.writers.acrossRestore)") }
        if s.writers.afterRestore != "stop" { out.append("  after_restore: \(s.writers.afterRestore)") }
        if s.writers.acrossRelocate != "stop" { out.append("  across_relocate: \(s.writers.acrossRelocate)") }
        out.append("  mix: {insert: \(s.writers.mix.insert), update: \(s.writers.mix.update), delete: \(s.writers.mix.delete), link: \(s.writers.mix.link)}")
        if let c = s.cloud { out.append("cloud: {account: \(c.account), setup_deadline: \(c.setupDeadline), container: \(quote(c.container))}") }
        if let r = s.readers {
            out.append("readers: {count: \(r.count), hold: \(r.hold), every: \(r.every)" + (r.acrossRestore == "stop" ? "" : ", across_restore: \(r.acrossRestore)")
                       + (r.acrossRelocate == "stop" ? "}" : ", across_relocate: \(r.acrossRelocate)}"))
        }
        out += scheduleLines(s.schedule)
        out += sidecarLines(s.sidecars)
        out.append("faults:")
        out.append("  mount: \(s.faults.mount)")
        if s.faults.backupsOnVolume { out.append("  backups_on_volume: true") }
        if let v = s.faults.hostSync { out.append("  host_sync: \"\(v)\"") }
        if let v = s.faults.fsyncFailure { out.append("  fsync_failure: \(v.rawValue)") }
        out.append(s.faults.rules.isEmpty ? "  rules: []" : "  rules:")
        for rule in s.faults.rules {
            out.append("    - ops: [\(rule.ops.map(\.rawValue).joined(separator: ", "))]")
            out.append("      path: \(quote(rule.path))")
            if let v = rule.nth { out.append("      nth: \(v)") }
            if let v = rule.after { out.append("      after: \(v)") }
            if let v = rule.probability { out.append("      probability: \(v)") }
            out.append("      action: \(quote(rule.action.description))")
            if let v = rule.duringStep { out.append("      during_step: \(v)") }
            if let v = rule.actor { out.append("      actor: \(quote(v))") }
            if let v = rule.whileSidecar { out.append("      while_sidecar: \(quote(v))") }
            if let v = rule.whileHeld { out.append("      while_held: [\(v.map { quote($0.description) }.joined(separator: ", "))]") }
        }
        if let d = s.faults.device {
            out.append("  device: {sector: \(d.sector), atomic_write: \(d.atomicWrite), powersafe_overwrite: \(d.powersafeOverwrite)}")
        }
        if let crash = s.faults.crash {
            out.append("  crash:")
            if let v = crash.afterCommits { out.append("    after_commits: \(v)") }
            if let v = crash.atSeconds { out.append("    at_seconds: \(v)") }
            if let v = crash.duringStep { out.append("    during_step: \(v)") }
            switch crash.moment {
            case .atPage(let v): out.append("    at_page: \(v)")
            case .atEnd: out.append("    at_end: true")
            case .delay(let v): out.append("    delay: \(v)")
            }
            out.append("    mode: \(quote(crash.mode.description))")
        }
        out.append(s.invariants.isEmpty ? "invariants: [all]" : "invariants: [\(s.invariants.joined(separator: ", "))]")
        out += metricLines(s.expectMetrics)
        out.append("expect: \(s.expect)")
        return out.joined(separator: "\n") + "\n"
    }

    static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
