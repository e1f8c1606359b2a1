import Foundation
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
    /// For a byte budget (enospc-after, edquot-after): how many bytes of this write still fit in it.
    var allowedBytes: Int?
    /// For hold: the rule whose `release` the call waits for, and for how long at most.
    var hold: (rule: String, ms: Int)?

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
        var firstFire: FiredCall?
    }

    private struct State {
        var rules: [Armed] = []
        var nextID = 1
    }

    /// The calls a `hold` rule holds now, and how many times it was released, by rule id.
    private struct Holds {
        var waiting: [String: Int] = [:]
        var releases: [String: Int] = [:]
    }
    private let holds = Mutex(Holds())

    private let seed: UInt64
    private let state = Mutex(State())
    /// Fast path: skip locking when nothing is armed.
    private let armedCount = Atomic<Int>(0)
    /// Ran/matched/fired per op and file class (the `coverage` verb).
    let coverage = CoverageCounters()
    /// Set when a `crash` rule fired: every later call but a close (`flush`) fails with EIO until `thaw()` (the
    /// crash verb).
    private let frozen = Atomic<Bool>(false)
    /// The pid of the process making the current call (FUSE's context), when the engine runs inside FUSE.
    private let callerPID: (@Sendable () -> Int32?)?

    init(seed: UInt64, callerPID: (@Sendable () -> Int32?)? = nil) {
        self.seed = seed
        self.callerPID = callerPID
    }

    /// The simulated disk's tear guarantees (the `device` verb); nil: the model FaultFS had before profiles
    /// (512-byte tears, whole-op reorder).
    let device = Mutex<DeviceProfile?>(nil)

    /// Whether a `crash` rule froze the volume (the runner polls this to crash right after the call).
    var isFrozen: Bool { frozen.load(ordering: .relaxed) }

    /// Ends a freeze: the crash that the freeze waited for has happened.
    func thaw() { frozen.store(false, ordering: .relaxed) }

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
                if $0.rule.action.writeBudget != nil { used = $0.bytesUsed }
                return RuleStatus(rule: $0.rule, matched: $0.matched, fired: $0.fired, bytesUsed: used, firstFire: $0.firstFire)
            }
        }.map { status in
            var status = status
            if case .hold = status.rule.action, let id = status.rule.id { status.holding = holds.withLock { $0.waiting[id] ?? 0 } }
            return status
        }
    }

    /// Holds the calling FUSE thread until `release(rule)` or `ms` pass (a plain pthread: it polls, it never
    /// waits on the concurrency runtime). Other calls go on meanwhile on the loop's other threads.
    func hold(rule: String, ms: Int) {
        let ticket = holds.withLock { h -> Int in
            h.waiting[rule, default: 0] += 1
            return h.releases[rule] ?? 0
        }
        let deadline = Date().addingTimeInterval(Double(ms) / 1000)
        while holds.withLock({ ($0.releases[rule] ?? 0) == ticket }), Date() < deadline { usleep(500) }
        holds.withLock { $0.waiting[rule, default: 1] -= 1 }
    }

    /// Lets every call `rule` holds now go on; returns how many there were.
    func release(rule: String) -> Int {
        holds.withLock { h in
            h.releases[rule, default: 0] += 1
            return h.waiting[rule] ?? 0
        }
    }

    /// Checks a call. `paths` are the call's paths (two for rename/link); `bytes` the write size.
    func evaluate(_ op: FaultOp, paths: [String], bytes: Int = 0) -> FaultDecision {
        let fileClass = FileClass.of(paths.first ?? "", op: op)
        coverage.add(op, fileClass, .ran)
        if frozen.load(ordering: .relaxed) {
            // A close changes nothing on the disk, and close works after the crash the freeze waits for: it is not
            // failed (a program whose close failed would report it before the crash cut it short).
            return op == .flush ? .none : FaultDecision(ruleID: "frozen", action: .errno(.EIO))
        }
        if armedCount.load(ordering: .relaxed) == 0 { return .none }
        var matchedAny = false
        let decision: FaultDecision = state.withLock { s in
            var decision = FaultDecision.none
            var firedRules: [Int] = []
            defer {
                // The caller of a first firing, for reports that say which writer or step hit the fault.
                for i in firedRules where s.rules[i].firstFire == nil {
                    let pids = callerPID?().map(Self.ancestry) ?? []
                    s.rules[i].firstFire = FiredCall(op: op.rawValue, path: paths.first ?? "", bytes: bytes, pids: pids,
                                                     command: pids.first.flatMap(Self.command), at: Date().timeIntervalSince1970)
                }
            }
            for i in s.rules.indices {
                let rule = s.rules[i].rule
                guard rule.ops.contains(op) || rule.ops.contains(.any) else { continue }
                guard paths.contains(where: { fnmatch(rule.path, $0, 0) == 0 }) else { continue }
                if rule.action.writeBudget != nil, op != .write { continue }
                if let groups = rule.processGroups, !FaultRule.caller(callerPID?(), isIn: groups) { continue }
                s.rules[i].matched += 1
                matchedAny = true
                let before = s.rules[i].fired
                defer { if s.rules[i].fired > before { firedRules.append(i) } }
                let n = s.rules[i].matched
                var fires: Bool
                switch rule.trigger {
                case .nth(let k): fires = n == k
                case .after(let k): fires = n > k
                case .probability(let p): fires = s.rules[i].rng.nextUnit() < p
                case .always: fires = true
                }
                if let budget = rule.action.writeBudget?.bytes {
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
                case .crash:
                    guard decision.action == nil else { continue }
                    s.rules[i].fired += 1
                    decision.ruleID = rule.id
                    decision.action = rule.action
                    frozen.store(true, ordering: .relaxed)
                case .hold(let ms):
                    // Like a delay, it composes with the other rules: the call runs normally once released.
                    guard decision.hold == nil, let id = rule.id else { continue }
                    s.rules[i].fired += 1
                    decision.hold = (id, ms)
                    if decision.ruleID == nil { decision.ruleID = rule.id }
                default:
                    guard decision.action == nil else { continue }
                    s.rules[i].fired += 1
                    decision.ruleID = rule.id
                    decision.action = rule.action
                }
            }
            return decision
        }
        if matchedAny { coverage.add(op, fileClass, .matched) }
        if decision.ruleID != nil { coverage.add(op, fileClass, .fired) }
        return decision
    }

    /// A caller and its ancestors from /proc (up to 8, stopping before init), read only when a rule fires. FUSE
    /// reports the calling thread's id, so the chain starts with the thread, then its process (Tgid), then parents.
    static func ancestry(_ pid: Int32) -> [Int32] {
        var chain: [Int32] = []
        var current = pid
        while current > 1, chain.count < 8 {
            chain.append(current)
            guard let status = try? String(contentsOfFile: "/proc/\(current)/status", encoding: .utf8) else { break }
            func field(_ name: String) -> Int32? {
                status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                    .flatMap { Int32($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)) }
            }
            if let group = field("Tgid"), group != current {
                current = group
                continue
            }
            guard let parent = field("PPid") else { break }
            current = parent
        }
        return chain
    }

    static func command(_ pid: Int32) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
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
