import FaultFS
import Foundation
import Scenario

/// Issue 29, point 2: the enumerator's reductions (states built from the same operations as one examined, states
/// SQLite recovers to the same pages, and the overlay that writes a state over the durable files in place) must
/// find what the full enumeration finds. This runs both on ONE recorded op log (two recordings are two different
/// runs, whose findings may differ for reasons that have nothing to do with the reductions): the same points
/// (same `maxPoints` and seed), once with every reduction on and once with every state built in memory, written
/// out and examined afresh (`reuse: false`, what `crash-states --examine-all` runs), and compares
///
/// - the findings: what was violated (the state's problem with its numbers masked, so "writer 1: 5 acknowledged
///   before this point, 3 present" and the same loss at another point are one finding) and the state's cause
///   (which crash variant at which kind of persistence point, on which file): every finding of the full run must
///   be found by the reduced one, and the reduced one must find nothing the full one does not;
/// - every state's verdict, one by one (the same states are enumerated in the same order both ways).
public enum CrashStateReductionCheck {
    /// One distinct finding of an enumeration.
    public struct Finding: Sendable, Codable, Hashable, Comparable, CustomStringConvertible {
        /// The problem, its numbers masked with `#` (which invariant-level check failed and how).
        public var problem: String
        /// The crash variant's kind (`keep-none`, `prefix`, `omit`, `torn`, `no pending entries`) and the
        /// persistence point's operation and file (`fsync /Library.sqlite-wal`, `end of log`).
        public var cause: String

        public var description: String { "\(problem) [\(cause)]" }
        public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.problem, lhs.cause) < (rhs.problem, rhs.cause) }
    }

    public struct Result: Sendable, Codable {
        public var schema = "lifeboat.crash-states-reductions/1"
        public var reduced: CrashStateEnumerator.Summary
        public var full: CrashStateEnumerator.Summary
        public var reducedFindings: [Finding]
        public var fullFindings: [Finding]
        /// Findings of the full enumeration the reduced one missed, and the reverse.
        public var lost: [Finding]
        public var added: [Finding]
        /// States whose problems differ between the two enumerations (the first few, described), and how many.
        public var statesDiffering = 0
        public var firstDifferences: [String] = []
        /// The two enumerations did not enumerate the same states in the same order.
        public var statesMismatched = false

        /// The reductions found exactly what the full enumeration found, state by state.
        public var same: Bool { lost.isEmpty && added.isEmpty && statesDiffering == 0 && !statesMismatched }
    }

    /// Why `lifeboat crash-states --compare-reductions` does not apply to a scenario, or nil when it does. It
    /// applies to a drill that runs on FaultFS (a mount, fault rules or a device profile): its op log has the
    /// persistence points whose crash states are enumerated, and the drill asks what reaches the disk. A drill
    /// without FaultFS crashes (if at all) by killing processes, whose buffered writes survive: its question is
    /// not one of crash states, and the catalog's copy mistakes without FaultFS are found by the run itself.
    public static func notApplicable(_ scenario: Scenario) -> String? {
        scenario.faults.needsFaultFS ? nil : "not a FaultFS drill (no mount, fault rule or device): its crash, if any, kills processes and keeps what they wrote"
    }

    /// Enumerates the recording's states both ways and compares them.
    public static func run(_ recording: CrashStateRun.Recording, maxPoints: Int, seed: UInt64,
                           progress: (@Sendable (String) -> Void)? = nil) throws -> Result {
        let enumerator = recording.enumerator
        var reducedStates: [(CrashStateEnumerator.State, [String])] = []
        var fullStates: [(CrashStateEnumerator.State, [String])] = []
        func labelled(_ label: String) -> (@Sendable (String) -> Void)? {
            guard let progress else { return nil }
            return { @Sendable line in progress(label + line) }
        }
        let reduced = try enumerator.run(scratch: recording.states, maxPoints: maxPoints, seed: seed, reuse: true,
                                         progress: labelled("reduced: "),
                                         verdict: { reducedStates.append(($0, $1)) })
        let full = try enumerator.run(scratch: recording.states, maxPoints: maxPoints, seed: seed, reuse: false,
                                      progress: labelled("full: "),
                                      verdict: { fullStates.append(($0, $1)) })
        let points = pointDescriptions(enumerator.records)
        let reducedFindings = findings(reducedStates, points: points)
        let fullFindings = findings(fullStates, points: points)
        var result = Result(reduced: reduced, full: full, reducedFindings: reducedFindings.sorted(), fullFindings: fullFindings.sorted(),
                            lost: fullFindings.subtracting(reducedFindings).sorted(), added: reducedFindings.subtracting(fullFindings).sorted())
        result.statesMismatched = reducedStates.count != fullStates.count
        for (one, other) in zip(reducedStates, fullStates) {
            if one.0 != other.0 { result.statesMismatched = true; continue }
            guard one.1 != other.1 else { continue }
            result.statesDiffering += 1
            if result.firstDifferences.count < 5 {
                result.firstDifferences.append("barrier seq \(one.0.point), \(one.0.variant): reduced \(one.1), full \(other.1)")
            }
        }
        return result
    }

    /// The distinct findings of a list of state verdicts.
    static func findings(_ states: [(CrashStateEnumerator.State, [String])], points: [UInt64: String]) -> Set<Finding> {
        var found = Set<Finding>()
        for (state, problems) in states {
            let variant = variantKind(state.variant)
            let point = points[state.point] ?? LoggedOp.endOfLog.description
            for problem in problems { found.insert(Finding(problem: masked(problem), cause: "\(variant) at \(point)")) }
        }
        return found
    }

    /// "prefix 3" -> "prefix", "omit seq 812" -> "omit", "torn seq 9 at +2048" -> "torn", "no pending entries" stays.
    static func variantKind(_ variant: String) -> String {
        variant.hasPrefix("no pending") ? variant : String(variant.split(separator: " ").first ?? "")
    }

    /// Every run of digits replaced by `#`.
    static func masked(_ text: String) -> String {
        var result = ""
        var inNumber = false
        for character in text {
            if character.isASCII, character.isNumber {
                if !inNumber { result.append("#") }
                inNumber = true
            } else {
                result.append(character)
                inNumber = false
            }
        }
        return result
    }

    /// Each persistence point's operation and file, by the barrier's sequence number.
    static func pointDescriptions(_ records: [OpRecord]) -> [UInt64: String] {
        var points: [UInt64: String] = [:]
        for record in records where record.op.isBarrier {
            points[record.seq] = [record.op.rawValue, record.path].compactMap { $0 }.joined(separator: " ")
        }
        return points
    }
}
