import Foundation

/// One invariant: its name, whose behaviour it judges, why a run may give it nothing to examine, and its check
/// over a run record. Each invariant is one file in Sources/Checks/Invariants and one line of
/// `InvariantRegistry.all`; the scenario parser takes the names from there.
public protocol Invariant: Sendable {
    /// The name scenario files and reports use ("restore-equals-backup").
    var name: String { get }
    /// Whose behaviour it judges. An invariant of the app's own (Core Data's) behaviour is reported apart from
    /// the program's verdicts and fails a run that expects `pass` only when the scenario names it.
    var owner: Owner { get }
    /// What to change when it is violated, in one line (docs/invariants.md's "how to fix" column).
    var fix: String { get }
    /// What the user loses, and when, when it is violated, in one phrase ("every commit since the last checkpoint
    /// is missing from the backup"): the line a person reads first, before the evidence.
    var consequence: String { get }
    /// How bad that loss is, for ranking findings: a damaged copy before silent loss, silent loss before a loss
    /// only a power cut brings, before a loud failure, before a cost.
    var severity: Severity { get }
    /// Whether a run judges it when the scenario does not list its invariants (`invariants:` absent).
    var judgedByDefault: Bool { get }
    /// The verdicts of one run: one per thing it examined (a backup, a restore, the store after a crash), each
    /// saying what it examined; none when the run gave it nothing to examine.
    func check(_ run: JudgedRun) -> [Verdict]
    /// Why the run gave it nothing to examine, and what a scenario needs for it to be exercised.
    func notExercised(_ run: JudgedRun) -> String
}

/// How bad a violated invariant's consequence is; findings are listed worst first (the lower the rank).
public enum Severity: Int, Sendable, Codable, Comparable, CaseIterable {
    /// The copy (or the live store) is damaged: SQLite or Core Data refuses it or misreads it.
    case damaged = 0
    /// Data the app confirmed is missing or wrong at once, with no crash needed, and nobody is told.
    case silentLoss
    /// Data is lost only if a power cut (or crash) comes before the next write-back.
    case lostOnPowerCut
    /// The step failed loudly, or the app saw errors: nothing is silently wrong, but there is no good copy.
    case loudFailure
    /// It costs more time, memory or space than it should.
    case cost

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The heading a report groups findings of this severity under.
    public var title: String {
        switch self {
        case .damaged: "damaged copy"
        case .silentLoss: "silent loss"
        case .lostOnPowerCut: "lost on a power cut"
        case .loudFailure: "failed loudly"
        case .cost: "cost"
        }
    }
}

/// Whose behaviour a verdict judges.
public enum Owner: String, Sendable, Codable {
    /// The program or step under test (a backup, restore, relocation or sync, or a sidecar).
    case program
    /// The app itself: its writers and readers, and Core Data's own behaviour (unsynced external data, replace
    /// under attachment writers). Its losses are findings of their own, never the program's.
    case app
}

extension Invariant {
    public var owner: Owner { .program }
    public var judgedByDefault: Bool { true }
}
