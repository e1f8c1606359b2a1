import Foundation
import Scenario
import SeededRandomness
import StoreModel

/// Variations of a scenario drawn from a seed: the writers' seed, number, load and mix of blobs and checkpoints,
/// the timing of each backup against the commits, and the crash point. The same explore seed draws the same
/// variations, so an exploration can be repeated.
public enum Variation {
    public static func draw(from base: Scenario, random: inout SeededRandom) -> Scenario {
        var s = base
        func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }
        func between(_ low: Int, _ high: Int) -> Int { low + Int(random.next() % UInt64(max(1, high - low + 1))) }
        s.seed = random.next() % 1_000_000_000
        s.writers.count = max(1, min(4, base.writers.count + between(-1, 1)))
        s.writers.transactions = max(10, between(base.writers.transactions / 2, base.writers.transactions * 3 / 2))
        s.writers.rate = pick([0, 150, 300, 600])
        // A drill whose writers write no attachments keeps them out: with Core Data's deletion inside the save,
        // attachment writers make a live backup lose files, which that drill leaves to the drills that show it.
        let blobFraction = pick([0, base.writers.blobFraction, 0.3])
        s.writers.blobFraction = base.writers.blobFraction == 0 ? 0 : blobFraction
        s.writers.blobSize = pick([20 * 1024, base.writers.blobSize, 160 * 1024])
        s.writers.checkpoint = pick([base.writers.checkpoint, "auto", "none", "frequent"])
        let total = s.writers.count * s.writers.transactions
        for index in s.schedule.indices where !s.schedule[index].afterWriters {
            if s.schedule[index].afterCommits != nil { s.schedule[index].afterCommits = between(0, max(1, total * 3 / 4)) }
        }
        if var crash = s.faults.crash {
            if crash.afterCommits != nil { crash.afterCommits = between(max(1, total / 4), max(2, total)) }
            switch crash.moment {
            case .atPage(let page): crash.moment = .atPage(between(1, max(2, page * 4)))
            case .delay: if crash.duringStep != nil { crash.moment = .delay(Double(between(0, 200)) / 1000) }
            case .atEnd: break // the program's end, whatever the variation
            }
            s.faults.crash = crash
        }
        return s
    }
}
