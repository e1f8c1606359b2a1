import Foundation

/// How a comparison by key (identity, or `Z_PK` in stores without one) went, entity by entity, and how it is
/// reconciled with the comparison by content (`ContentComparison`) when the stores have no identity attribute.
///
/// By key, a changed attribute is one finding on one object, named with both values, and a changed to-one is a
/// finding on its owner only (targets are compared by key). By content, a changed object also changes the digest
/// of every object that points at it, so one renamed row cascades into counts over other entities. Hence, per
/// entity: no difference by key means none (whatever content digests say); differences by key that content
/// does not see are renumbered objects (a warning: same objects under other keys, as migrate leaves them);
/// differences both see are reported by key when most of the entity's objects kept their keys, and by content
/// counts when the keys were reassigned (a renumbered copy that also lost objects) or objects are duplicated
/// (a content notion: the same object stored twice under two keys).
struct KeyedTally {
    static let byKey: Set<Finding.Kind> = [.extraObject, .missingObject, .changedObject, .extraLink, .missingLink]
    static let objectKinds: Set<Finding.Kind> = [.extraObject, .missingObject, .changedObject, .duplicateObject]
    static let linkKinds: Set<Finding.Kind> = [.extraLink, .missingLink]

    /// Objects found at the same key with the same values, per entity.
    var equal: [String: Int] = [:]
    /// Objects extra, missing or changed at their key, per entity.
    var differing: [String: Int] = [:]

    /// Whether most of an entity's objects matched at their own key.
    func keysHeld(_ entity: String) -> Bool {
        let same = equal[entity] ?? 0
        return same > 0 && same >= differing[entity] ?? 0
    }

    static func reconcile(keyed: CheckReport, tally: KeyedTally, content: CheckReport, into report: inout CheckReport) {
        // Findings of other kinds (history counts) came from the keyed pass and stand as they are.
        for finding in keyed.findings where !byKey.contains(finding.kind) { report.add(finding) }
        let entities = Set(tally.differing.keys).sorted()
        var renumbered = 0
        var byContent: Set<String> = []
        for entity in entities {
            let contentSees = content.findings.contains { $0.entity == entity && objectKinds.contains($0.kind) }
            if !contentSees {
                renumbered += tally.differing[entity] ?? 0
            } else if tally.keysHeld(entity), !content.findings.contains(where: { $0.entity == entity && $0.kind == .duplicateObject }) {
                for finding in keyed.findings where finding.entity == entity && objectKinds.contains(finding.kind) { report.add(finding) }
                // Past the per-kind limit the keyed pass kept only counts: they still count as violations.
                let hidden = (tally.differing[entity] ?? 0) - keyed.findings.count { $0.entity == entity && objectKinds.contains($0.kind) }
                if hidden > 0 {
                    report.suppressed[Finding.Kind.changedObject.rawValue, default: 0] += hidden
                    report.suppressedViolations += hidden
                }
            } else {
                byContent.insert(entity)
                for finding in content.findings where finding.entity == entity && objectKinds.contains(finding.kind) { report.add(finding) }
            }
        }
        // Links: by key when every entity kept its keys (links equal by key are equal, whatever a changed
        // object did to their content digests); by content counts when some entity's keys were reassigned.
        let keyedLinks = keyed.findings.filter { linkKinds.contains($0.kind) }
        let contentLinks = content.findings.filter { linkKinds.contains($0.kind) }
        if !byContent.isEmpty {
            for finding in contentLinks { report.add(finding) }
        } else if !keyedLinks.isEmpty {
            if contentLinks.isEmpty {
                renumbered += keyedLinks.count
            } else {
                for finding in keyedLinks { report.add(finding) }
            }
        }
        if renumbered > 0 {
            report.add(Finding(.warning, .renumberedObjects,
                               "\(renumbered) object(s) or link(s) match the expected store by content under other primary keys (same objects, renumbered)"))
        }
    }
}
