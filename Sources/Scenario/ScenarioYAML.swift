import Foundation

/// Writes a scenario back as YAML in the same keys the parser reads, so `repro.yaml` replays exactly.
public enum ScenarioYAML {
    public static func render(_ s: Scenario) -> String {
        var out: [String] = []
        out.append("name: \(quote(s.name))")
        if !s.description.isEmpty { out.append("description: \(quote(s.description))") }
        out.append("seed: \(s.seed)")
        out.append("app_model: \(s.appModel)")
        out.append("lightweight_migration: \(s.lightweightMigration)")
        out.append("time_limit: \(s.timeLimit)")
        out.append("scheduler: \(s.scheduler)")
        out.append("store:")
        out.append("  objects: \(s.store.objects)")
        out.append("  blob_fraction: \(s.store.blobFraction)")
        out.append("  blob_size: \(s.store.blobSize)")
        out.append("  journal_mode: \(s.store.journalMode)")
        if s.store.history { out.append("  history: true") }
        if s.store.inheritance { out.append("  inheritance: true") }
        if s.store.cloudkit { out.append("  cloudkit: true") }
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
        out.append("  mix: {insert: \(s.writers.mix.insert), update: \(s.writers.mix.update), delete: \(s.writers.mix.delete), link: \(s.writers.mix.link)}")
        if let c = s.cloud { out.append("cloud: {account: \(c.account), setup_deadline: \(c.setupDeadline), container: \(quote(c.container))}") }
        if let r = s.readers { out.append("readers: {count: \(r.count), hold: \(r.hold), every: \(r.every)}") }
        out.append(s.schedule.isEmpty ? "schedule: []" : "schedule:")
        for step in s.schedule {
            out.append("  - \(step.action.rawValue): \(step.strategy)")
            if let v = step.afterCommits { out.append("    after_commits: \(v)") }
            if let v = step.atSeconds { out.append("    at_seconds: \(v)") }
            if step.afterWriters { out.append("    after_writers: true") }
            if let v = step.everyCommits { out.append("    every_commits: \(v)") }
            if step.times != 1 { out.append("    times: \(step.times)") }
            if step.action == .backup { out.append("    destination: \(step.destination)") }
            if let v = step.pagesPerStep { out.append("    pages_per_step: \(v)") }
            if let v = step.stepDelay { out.append("    step_delay: \(v)") }
            if let v = step.maxRestarts { out.append("    max_restarts: \(v)") }
            if let v = step.command { out.append("    command: \(quote(v))") }
            if let v = step.copyExternalData { out.append("    copy_external_data: \(v)") }
            if let v = step.allowClone { out.append("    allow_clone: \(v)") }
            if let v = step.to { out.append("    to: \(quote(v))") }
            if let v = step.migrateExisting { out.append("    migrate_existing: \(v)") }
        }
        out += sidecarLines(s.sidecars)
        out.append("faults:")
        out.append("  mount: \(s.faults.mount)")
        if s.faults.backupsOnVolume { out.append("  backups_on_volume: true") }
        out.append(s.faults.rules.isEmpty ? "  rules: []" : "  rules:")
        for rule in s.faults.rules {
            out.append("    - ops: [\(rule.ops.joined(separator: ", "))]")
            out.append("      path: \(quote(rule.path))")
            if let v = rule.nth { out.append("      nth: \(v)") }
            if let v = rule.after { out.append("      after: \(v)") }
            if let v = rule.probability { out.append("      probability: \(v)") }
            out.append("      action: \(quote(rule.action))")
            if let v = rule.duringStep { out.append("      during_step: \(v)") }
        }
        if let d = s.faults.device {
            out.append("  device: {sector: \(d.sector), atomic_write: \(d.atomicWrite), powersafe_overwrite: \(d.powersafeOverwrite)}")
        }
        if let crash = s.faults.crash {
            out.append("  crash:")
            if let v = crash.afterCommits { out.append("    after_commits: \(v)") }
            if let v = crash.atSeconds { out.append("    at_seconds: \(v)") }
            if let v = crash.duringStep { out.append("    during_step: \(v)") }
            if let v = crash.atPage { out.append("    at_page: \(v)") } else { out.append("    delay: \(crash.delay)") }
            out.append("    mode: \(quote(crash.mode))")
        }
        out.append(s.invariants.isEmpty ? "invariants: [all]" : "invariants: [\(s.invariants.joined(separator: ", "))]")
        out.append("expect: \(s.expect)")
        return out.joined(separator: "\n") + "\n"
    }

    static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
