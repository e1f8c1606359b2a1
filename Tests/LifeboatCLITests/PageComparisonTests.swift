import Foundation
import LifeboatTestSupport
import Testing

/// What the shard-merge comparisons take out as differing between any two runs, and what they keep: a deep search's
/// per-program point time limits are measured (six times each probe's time), its call counts are not.
@Suite struct PageComparisonTests {
    static func page(limit: Int, opens: Int) -> String {
        """
        {
          "calls" : {
            "backup+commits" : {
              "open" : \(opens)
            }
          },
          "pointSeconds" : {
            "backup" : 60,
            "backup+commits" : \(limit)
          },
          "runs" : 24
        }
        """
    }

    @Test func pointTimeLimitsAreTakenOutAndCountsAreNot() {
        #expect(PageComparison.firstDifference(Self.page(limit: 63, opens: 5), Self.page(limit: 60, opens: 5), roots: []) == nil)
        let difference = PageComparison.firstDifference(Self.page(limit: 60, opens: 5), Self.page(limit: 60, opens: 6), roots: [])
        #expect(difference?.contains("\"open\" : 5") == true, "\(difference ?? "none")")
    }

    @Test func durationsAndIdsAreTakenOut() {
        let a = "run try-20261203-013736-aa902c took 7.0 s at 2026-12-03T01:37:36Z, \"seconds\" : 12.5"
        let b = "run try-20261201-000000-abcdef took 61 s at 2026-12-01T00:00:00.5Z, \"seconds\" : 3"
        #expect(PageComparison.firstDifference(a, b, roots: []) == nil)
        #expect(PageComparison.firstDifference(a, a.replacingOccurrences(of: "run", with: "walk"), roots: []) != nil)
    }
}
