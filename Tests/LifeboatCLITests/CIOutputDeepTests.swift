import Checks
import Explore
import Foundation
@testable import LifeboatCLI
import Reporting
import Testing

/// `try --deep`'s findings as CI shows them (`CIOutput.findings(deep:)`): the same point on two seeds is one
/// finding (one SARIF result, one fingerprint) naming both seeds; another point is another finding; the cause's
/// clauses are its events; the program is the command line as typed.
@Suite struct CIOutputDeepTests {
    static func summary(_ findings: String) throws -> DeepSearch.Summary {
        let json = #"{"schema": "lifeboat.deep/1", "calls": {}, "walks": [], "covered": 4, "total": 4, "grouped": 0, "runs": 5, "seconds": 3.5, "findings": \#(findings)}"#
        return try JSONDecoder().decode(DeepSearch.Summary.self, from: Data(json.utf8))
    }

    static func point(walk: String, operation: String, time: String) -> String {
        #"{"walk": "\#(walk)", "n": 2, "operation": "\#(operation)", "violated": ["backup-durable"], "#
            + #""evidence": ["backup-0 (command): the backup is missing after the crash"], "#
            + #""cause": "rename /backups/0-1/Library.sqlite.tmp -> /backups/0-1/Library.sqlite at \#(time) s by backup-0 (mv) was never followed by an fsync of its directory /backups/0-1; the crash at \#(time) s dropped it: the rename onto /backups/0-1/Library.sqlite was undone", "#
            + #""repro": "/tmp/reports/try-1/deep-seed1/repros/crash-keep-none-n2.yaml"}"#
    }

    @Test func theSamePointOnTwoSeedsIsOneFinding() throws {
        let walk = "backup: crash keep-none after fsync,fsyncdir,rename,unlink"
        let first = try Self.summary("[" + Self.point(walk: walk, operation: "rename /backups/0-1/Library.sqlite.tmp by backup-1 (mv)", time: "0.412") + "]")
        let second = try Self.summary("[" + Self.point(walk: walk, operation: "rename /backups/0-1/Library.sqlite.tmp by backup-1 (mv)", time: "0.533") + ", "
                                      + Self.point(walk: "backup: errno EIO at write,copy_file_range", operation: "write /backups/0-1/Library.sqlite.tmp by backup-1 (cp)", time: "0.2") + "]")
        let folder = URL(fileURLWithPath: "/tmp/reports/try-1")
        let items = CIOutput.findings(deep: [(1, first, folder), (2, second, folder)], typed: .init(backup: "sh my-backup.sh", restore: nil),
                                      workingDirectory: URL(fileURLWithPath: "/tmp"))
        #expect(items.count == 2)
        #expect(items[0].place == "--deep \(walk), N=2 (rename /backups/0-1/Library.sqlite.tmp by backup-1 (mv)), seeds 1, 2")
        #expect(items[0].program == "sh my-backup.sh")
        #expect(items[0].events.count == 2 && items[0].events[1].hasPrefix("the crash at 0.412 s dropped it"))
        #expect(items[0].finding.consequence == InvariantRegistry.invariant(named: "backup-durable")?.consequence)
        #expect(items[0].repro == "lifeboat replay reports/try-1/deep-seed1/repros/crash-keep-none-n2.yaml")
        #expect(items[0].fingerprint != items[1].fingerprint)
        let sarif = SARIFReport.render(items, invocation: .init(command: "lifeboat try --deep", workingDirectory: "/tmp", version: "0", category: "lifeboat-try-deep"))
        #expect(sarif.components(separatedBy: "\"ruleId\" : \"backup-durable\"").count == 3)
        #expect(CIOutput.verdicts(deep: [(1, first, folder)]) == ["seed 1: covered 4 of 4 points (100%); CAUGHT 1 point(s)"])
    }
}
