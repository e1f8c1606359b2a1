import Foundation

/// One thing `check` found, with the evidence a person needs to act on it.
public struct Finding: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable { case violation, warning }

    /// Kinds are stable strings, used in reports and tests.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case unreadable, integrity, bookkeeping, metadata
        case missingExternalFile = "missing-external-file"
        case orphanExternalFile = "orphan-external-file"
        case danglingRelationship = "dangling-relationship"
        case duplicateIdentity = "duplicate-identity"
        case missingObject = "missing-object"
        case extraObject = "extra-object"
        case changedObject = "changed-object"
        case missingLink = "missing-link"
        case extraLink = "extra-link"
        case missingEntity = "missing-entity"
        /// Objects stored more often than in the expected store (matched by content, keys aside).
        case duplicateObject = "duplicate-object"
        /// A warning: the objects match by content under other primary keys.
        case renumberedObjects = "renumbered-objects"
        /// A warning: the stores' persistent-history rows differ in number.
        case history
        /// A warning: the store holds no objects at all (the commonest backup mistake: a WAL store copied
        /// without its -wal, whose commits were all still in it).
        case emptyStore = "empty-store"
        /// CloudKit mirroring (`ANSCK*`): record metadata for a missing object (a violation); objects with no
        /// record metadata, or waiting to upload (warnings: the next sync exports them).
        case cloudKitMirroring = "cloudkit-mirroring"
    }

    public var severity: Severity
    public var kind: Kind
    public var entity: String?
    /// The object (identity UUID, or Z_PK where the store has no identity attribute).
    public var object: String?
    public var message: String

    public init(_ severity: Severity, _ kind: Kind, entity: String? = nil, object: String? = nil, _ message: String) {
        self.severity = severity
        self.kind = kind
        self.entity = entity
        self.object = object
        self.message = message
    }

    public var description: String {
        var text = "\(severity.rawValue) \(kind.rawValue)"
        if let entity { text += " \(entity)" }
        if let object { text += " \(object)" }
        return text + ": " + message
    }
}

/// What `check` found in one store (and, with `--against`, how it differs from another).
public struct CheckReport: Sendable, Codable {
    public var store: String
    public var against: String?
    /// Findings, at most `CheckLimits.perKind` of each kind; `suppressed` counts the rest.
    public var findings: [Finding] = []
    public var suppressed: [String: Int] = [:]
    /// Objects per entity.
    public var objectCounts: [String: Int] = [:]
    public var externalReferences = 0
    public var externalFiles = 0
    public var seconds = 0.0
    /// Set when the store could not be opened at all (not a regular file, not an SQLite database, unreadable, no
    /// Core Data bookkeeping tables): bad input, not a finding about a store.
    public var unopenable: String?

    /// How many findings of one kind are kept (the rest are counted in `suppressed`): `CheckLimits.perKind` for
    /// a person's report; a run's measurements keep them all, since the judge matches them one by one.
    public var limitPerKind = CheckLimits.perKind

    public init(store: String, against: String? = nil, limitPerKind: Int = CheckLimits.perKind) {
        self.store = store
        self.against = against
        self.limitPerKind = limitPerKind
    }

    public var violations: [Finding] { findings.filter { $0.severity == .violation } }
    public var hasViolations: Bool { !violations.isEmpty || suppressedViolations > 0 }
    var suppressedViolations = 0

    /// Counts a finding per kind, keeping only the first ones so a badly broken store gives a readable report.
    mutating func add(_ finding: Finding) {
        let key = finding.kind.rawValue
        if findings.count(where: { $0.kind == finding.kind }) >= limitPerKind {
            suppressed[key, default: 0] += 1
            if finding.severity == .violation { suppressedViolations += 1 }
        } else {
            findings.append(finding)
        }
    }

    public func count(_ kind: Finding.Kind) -> Int {
        findings.count(where: { $0.kind == kind }) + (suppressed[kind.rawValue] ?? 0)
    }

    private enum CodingKeys: String, CodingKey {
        case store, against, findings, suppressed, objectCounts, externalReferences, externalFiles, seconds, suppressedViolations, unopenable
    }
}

public enum CheckLimits {
    public static let perKind = 50
}
