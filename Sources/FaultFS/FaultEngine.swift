import SeededRandomness
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The outcome of checking one call against the armed rules.
struct FaultDecision: Sendable {
    /// Id of the rule that decided the call's fate (nil when only delays fired or nothing fired).
    var ruleID: String?
    /// The action to apply; nil means run the call normally.
    var action: FaultAction?
    /// Total delay from every delay rule that fired, applied before the call.
    var delayMS: Int = 0
    /// For enospc-after: how many bytes of this write still fit in the budget.
    var allowedBytes: Int?

    static let none = FaultDecision(ruleID: nil, action: nil)
}

/// Armed rules and their counters, behind a Mutex so FUSE worker threads can consult them concurrently.
/// Counting is per rule: every matching call advances every matching rule's counter, so `nth K` means the
/// Kth matching call even when another rule fired earlier. Delays compose; the first other action wins.
final class FaultEngine: Sendable {
    private struct Armed {
        var rule: FaultRule
        var matched = 0
        var fired = 0
        var bytesUsed = 0
        var rng: SeededRandom
    }

    private struct State {
        var rules: [Armed] = []
        var nextID = 1
    }

    private let seed: UInt64
    private let state = Mutex(State())
    /// Fast path: skip locking when nothing is armed.
    private let armedCount = Atomic<Int>(0)

    init(seed: UInt64) { self.seed = seed }

    /// Arms a rule; returns its id or a validation message.
    func arm(_ rule: FaultRule) -> Result<String, FaultFSError> {
        if let message = rule.validationError() { return .failure(.badRequest(message)) }
        return state.withLock { s in
            var r = rule
            if let id = r.id {
                if s.rules.contains(where: { $0.rule.id == id }) { return .failure(.badRequest("rule id \(id) already armed")) }
            } else {
                while s.rules.contains(where: { $0.rule.id == "r\(s.nextID)" }) { s.nextID += 1 }
                r.id = "r\(s.nextID)"
                s.nextID += 1
            }
            s.rules.append(Armed(rule: r, rng: SeededRandom(seed: seed, label: r.id!)))
            armedCount.store(s.rules.count, ordering: .relaxed)
            return .success(r.id!)
        }
    }

    func disarm(_ id: String) -> Bool {
        state.withLock { s in
            let before = s.rules.count
            s.rules.removeAll { $0.rule.id == id }
            armedCount.store(s.rules.count, ordering: .relaxed)
            return s.rules.count != before
        }
    }

    func clear() {
        state.withLock { s in s.rules.removeAll() }
        armedCount.store(0, ordering: .relaxed)
    }

    func list() -> [RuleStatus] {
        state.withLock { s in
            s.rules.map {
                var used: Int? = nil
                if case .enospcAfter = $0.rule.action { used = $0.bytesUsed }
                return RuleStatus(rule: $0.rule, matched: $0.matched, fired: $0.fired, bytesUsed: used)
            }
        }
    }

    /// Checks a call. `paths` are the call's paths (two for rename/link); `bytes` the write size.
    func evaluate(_ op: FaultOp, paths: [String], bytes: Int = 0) -> FaultDecision {
        if armedCount.load(ordering: .relaxed) == 0 { return .none }
        return state.withLock { s in
            var decision = FaultDecision.none
            for i in s.rules.indices {
                let rule = s.rules[i].rule
                guard rule.ops.contains(op) || rule.ops.contains(.any) else { continue }
                guard paths.contains(where: { fnmatch(rule.path, $0, 0) == 0 }) else { continue }
                if case .enospcAfter = rule.action, op != .write { continue }
                s.rules[i].matched += 1
                let n = s.rules[i].matched
                var fires: Bool
                switch rule.trigger {
                case .nth(let k): fires = n == k
                case .after(let k): fires = n > k
                case .probability(let p): fires = s.rules[i].rng.nextUnit() < p
                case .always: fires = true
                }
                if case .enospcAfter(let budget) = rule.action {
                    // The budget is the trigger: charge what fits, fire when the write does not fit whole.
                    let left = max(0, budget - s.rules[i].bytesUsed)
                    if decision.action != nil { continue }
                    if bytes <= left {
                        s.rules[i].bytesUsed += bytes
                        continue
                    }
                    s.rules[i].bytesUsed += left
                    s.rules[i].fired += 1
                    decision.ruleID = rule.id
                    decision.action = rule.action
                    decision.allowedBytes = left
                    continue
                }
                guard fires else { continue }
                switch rule.action {
                case .delay(let ms):
                    s.rules[i].fired += 1
                    decision.delayMS += ms
                    if decision.ruleID == nil { decision.ruleID = rule.id }
                case .fsyncLie, .fsyncFailClean:
                    guard op == .fsync || op == .fsyncdir, decision.action == nil else { continue }
                    s.rules[i].fired += 1
                    decision.ruleID = rule.id
                    decision.action = rule.action
                case .shortWrite:
                    guard op == .write, decision.action == nil else { continue }
                    s.rules[i].fired += 1
                    decision.ruleID = rule.id
                    decision.action = rule.action
                case .shortRead:
                    guard op == .read, decision.action == nil else { continue }
                    s.rules[i].fired += 1
                    decision.ruleID = rule.id
                    decision.action = rule.action
                default:
                    guard decision.action == nil else { continue }
                    s.rules[i].fired += 1
                    decision.ruleID = rule.id
                    decision.action = rule.action
                }
            }
            return decision
        }
    }
}

/// Errors of the FaultFS library, with messages fit for a user.
public enum FaultFSError: Error, CustomStringConvertible, Equatable {
    case badRequest(String)
    case control(String)
    case launch(String)
    case io(String)

    public var description: String {
        switch self {
        case .badRequest(let m): return "bad request: \(m)"
        case .control(let m): return "control: \(m)"
        case .launch(let m): return "launch: \(m)"
        case .io(let m): return m
        }
    }
}
