import Foundation
import Testing

/// Runs each test case of a suite on a thread of its own, a few at a time (`.ownThread` on the suite).
///
/// Why: Swift Testing starts every test as a task on Swift's cooperative pool, one thread per core (two on the
/// CI machine). A test that runs a whole scenario blocks its thread for seconds, mostly waiting on child
/// processes and FaultFS (the 59 shipped drills use 3 CPU-minutes in 9 minutes of wall time), so two such
/// tests stall the pool: every other test, even a parser test of a millisecond, waited up to 9 minutes for a
/// thread, and the suite took the sum of the blocking tests' times over two. With this trait a case's body
/// runs on its own thread (a task executor preference), so the pool stays free, and at most `width` cases
/// of all such suites run at once, so the machine is not overloaded either.
///
/// `LIFEBOAT_TEST_WIDTH` sets the width (default: three times the cores, at least 4).
public struct OwnThread: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public static let width: Int = {
        if let text = ProcessInfo.processInfo.environment["LIFEBOAT_TEST_WIDTH"], let value = Int(text), value > 0 { return value }
        return max(4, 3 * ProcessInfo.processInfo.activeProcessorCount)
    }()

    static let slots = Slots(width)

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> OwnThread? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        await Self.slots.acquire()
        let executor = ThreadExecutor(name: test.name)
        defer {
            executor.finish()
            Task { await Self.slots.release() }
        }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThread {
    /// Each test case on its own thread, `OwnThread.width` at a time.
    public static var ownThread: OwnThread { OwnThread() }
}

/// A counting semaphore for tasks: waiting suspends the task, it holds no thread.
actor Slots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ width: Int) { free = width }

    func acquire() async {
        if free > 0 { free -= 1; return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}

/// A task executor with one thread of its own, which runs the jobs given to it in order until `finish`.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = "test: \(name)"
        thread.stackSize = 8 << 20
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        // A job that comes after the test case ended (a task it left behind) runs on the pool, never lost.
        if finished {
            condition.unlock()
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once it has run the jobs already given to it.
    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty { condition.unlock(); return }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
