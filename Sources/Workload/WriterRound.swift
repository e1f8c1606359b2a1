/// Writer numbers across the rounds of a run (`writers.after_restore: continue`).
///
/// A restore starts a new round: new writer processes commit against the restored store, and the oracle holds
/// each round's stores to that round's history alone, on top of the store the restore produced. So that a
/// round's objects are never taken for those the restore brought back, every number a round writes under is its
/// own: the round times `stride`, plus the writer's index (1...64) or, for a bulk delete, 1000 plus its schedule
/// index. A writer's seed, its objects' identities (drawn from that seed) and their titles (`w<number>-<seq>`)
/// all follow from the number, so rounds never share one.
public enum WriterRound {
    public static let stride = 100_000

    /// The number writer `index` (1-based) of `round` records its history under (round 0: the index itself).
    public static func writer(_ index: Int, round: Int) -> Int { round * stride + index }

    /// The number a bulk delete of `schedule[index]` in `round` records its transaction under.
    public static func bulkDelete(_ index: Int, round: Int) -> Int { round * stride + 1000 + index }

    /// The round a writer number belongs to.
    public static func round(of writer: Int) -> Int { writer / stride }

    /// Whether the number is a bulk delete's (rather than a writer process's).
    public static func isBulkDelete(_ writer: Int) -> Bool { writer % stride >= 1000 }
}
