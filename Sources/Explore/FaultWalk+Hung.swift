import Checks
import FaultFS
import FaultVocabulary
import Foundation
import Reporting
import Runner
import Scenario

/// A point where the program never returns (issue 39, point 5): a script that sleeps or retries forever once its
/// call failed, a copy blocked for good. The run itself bounds it: the scenario's `time_limit` stops the step (its
/// process group SIGKILLed, the rest of the run's children killed and the FaultFS volume unmounted by the run's own
/// clean-up), and the run ends with a time-limit error and no fault table, since that is written only by a run that
/// ends in time. So the walk reads what happened from the run's op log: the call the walk's fault fired on, and the
/// program's last call after it. The row is `hung`, not a failing N, and the walk goes on with the next N.
extension FaultWalk {
    /// The time limit a run was stopped at, when it was stopped for it (the program under test never returned):
    /// the run says so (a wait past its limit), or a step failed as the limit came, which is when the step's own
    /// wait kills it (a step that was the run's last event leaves no other trace of the limit).
    static func hungLimit(_ result: RunResult, scenario: Scenario) -> Double? {
        let limit = scenario.timeLimit
        let stopped = result.errors.contains(RunError.timeLimit(limit).description)
            || result.operations.contains { !$0.succeeded && $0.end >= limit - 1 }
        return stopped ? limit : nil
    }

    /// Whether this is a crash walk whose crash fired (the run's op log holds the crash): then a program that
    /// never returned was waiting on a volume the power had left (every call after the crash fails with EIO), not
    /// hung on its own; the run is judged as any crash is, on the state the crash left. Its step is still waited
    /// for until the time limit, which the runner's step could cut short by polling the frozen volume.
    func crashFired(opLog: URL?) -> Bool {
        guard case .crash = config.action, let opLog, let records = try? OpLog.read(opLog) else { return false }
        return records.contains { $0.op == .crash }
    }

    /// The row of a hung N: the fault's call (from the op log) as its hit, and what the program did after it.
    func hungRow(_ n: Int, result: RunResult, report: String, opLog: URL?, limit: Double, seconds: Double) -> Row {
        let records = opLog.flatMap { try? OpLog.read($0) } ?? []
        let (hit, after) = Self.hungCalls(records, ops: config.ops, actor: config.actor)
        let limitText = String(format: "%.0f s", limit)
        let sentence: String
        if let hit {
            let last = after.map { "its last call was \(CrashLoss.describe($0)) (\(($0.result < 0 ? ErrnoNames.name(of: Int32(-$0.result)) : "success"))) at \(String(format: "%.3f", $0.t)) s on the volume's clock" }
                ?? "it made no call on the volume after it"
            sentence = "after \(config.action) at \(hit.summary), the program never returned: \(last); stopped at the run's time limit of \(limitText)"
        } else {
            sentence = "the program never returned before its \(n)th \(config.ops.map(\.rawValue).joined(separator: "/")) call (the fault never fired); stopped at the run's time limit of \(limitText)"
        }
        return Row(n: n, fired: hit != nil, hit: hit, outcome: Self.hung, violated: [], evidence: [],
                   cause: nil, errors: result.errors, seconds: seconds, report: report, repro: nil, hung: sentence)
    }

    /// From a run's op log: the call a fault of the walk fired on (a rule's fire on one of `ops`), named as the
    /// run would have named it (the walk's actor, the command that made the call), and the last call after it of
    /// the processes of the same step (those whose parents reach the step's process, the one just below the
    /// runner, which is this process: the runner runs in it).
    static func hungCalls(_ records: [OpRecord], ops: [FaultOp], actor: String?, runner: Int32 = getpid()) -> (FaultHit?, OpRecord?) {
        let processes = OpLogProcesses(records)
        // A rule over fsync fires on an fdatasync too (`LoggedOp.ruleOp`).
        guard let fired = records.first(where: { $0.fault != nil && $0.op.ruleOp.map(ops.contains) == true }) else { return (nil, nil) }
        let command = fired.pid.flatMap(processes.command)
        let hit = FaultHit(op: fired.op.rawValue, path: fired.path ?? "", offset: fired.offset, length: fired.length,
                           actor: actor.map { name in command.map { "\(name) (\($0))" } ?? name }, pid: fired.pid, command: command)
        // The step's process: the one in the call's chain whose parent is the runner.
        let chain = fired.pid.map(processes.chain) ?? []
        guard let position = chain.firstIndex(of: runner), position > 0 else { return (hit, nil) }
        let step = chain[position - 1]
        let after = records.last { $0.seq > fired.seq && $0.pid.map { processes.chain($0).contains(step) } == true }
        return (hit, after)
    }
}
