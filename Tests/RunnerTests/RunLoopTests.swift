import Foundation
@testable import Runner
import Testing

/// The one loop of many runs (`RunLoop`): a shard's cases, at most `jobs` at a time, rows in the cases' order.
@Suite struct RunLoopTests {
    struct Failure: Error {}

    @Test(arguments: [1, 2, 3, 8])
    func rowsComeBackInTheCasesOrderAtAnyJobs(_ jobs: Int) throws {
        // Later cases finish first: the rows must not follow the order they finished in.
        let rows = try RunLoop(jobs: jobs).map(Array(0..<7)) { value, position -> String in
            usleep(UInt32((7 - value) * 3_000))
            return "\(value)@\(position)"
        }
        #expect(rows == (0..<7).map { "\($0)@\($0)" })
    }

    @Test func atMostJobsRunAtATime() throws {
        let running = Shared((now: 0, most: 0))
        _ = try RunLoop(jobs: 2).map(Array(0..<6)) { _, _ in
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            usleep(20_000)
            running.withLock { $0.now -= 1 }
        }
        #expect(running.withLock { $0.most } == 2)
    }

    @Test func untilStopsAfterTheRowThatSaysSoAndRunsNothingAfterIt() throws {
        var ran: [Int] = []
        let rows = RunLoop(jobs: 4).map(Array(1...10), until: { $0 == 4 }) { value, position -> Int in
            ran.append(value)
            #expect(position == value - 1)
            return value
        }
        #expect(rows == [1, 2, 3, 4] && ran == [1, 2, 3, 4])
        // A shard's slice, to its end when nothing says stop.
        #expect(RunLoop(shard: Shard(index: 2, count: 3)).map(Array(1...10), until: { _ in false }) { value, _ in value } == [2, 5, 8])
    }

    @Test func shardsTakeEveryNthCaseAndTogetherCoverAll() throws {
        let cases = Array(1...10)
        let first = try RunLoop(shard: try Shard("1/3")).map(cases) { value, _ in value }
        let second = try RunLoop(jobs: 2, shard: try Shard("2/3")).map(cases) { value, _ in value }
        let third = try RunLoop(shard: try Shard("3/3")).map(cases) { value, _ in value }
        #expect(first == [1, 4, 7, 10] && second == [2, 5, 8] && third == [3, 6, 9])
        #expect(Set(first + second + third) == Set(cases))
    }

    @Test func anErrorStopsNewCasesAndIsThrownOnceTheRunningOnesEnd() {
        let started = Shared(0)
        #expect(throws: Failure.self) {
            _ = try RunLoop(jobs: 2).map(Array(0..<20)) { value, _ in
                started.withLock { $0 += 1 }
                if value == 1 { throw Failure() }
                usleep(10_000)
            }
        }
        #expect(started.withLock { $0 } < 20)
    }

    @Test func jobsParseAsANumberOrCores() {
        #expect((try? JobCount.parse("3").get()) == 3)
        #expect((try? JobCount.parse("cores").get()) == JobCount.cores)
        if case .failure(let error) = JobCount.parse("-1") { #expect(error.message.hasPrefix("--jobs -1: give a number")) } else { Issue.record("-1 accepted") }
    }
}
