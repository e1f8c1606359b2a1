import Foundation
@testable import LifeboatCLI
import LifeboatTestSupport
import Reporting
import Runner
import Testing

/// The matrix's findings as CI shows them (`CIOutput.findings(matrix:)`), from a matrix result as `matrix.json` holds
/// it: one per recipe and invariant over its cells and seeds, the recipe's backup.sh as the program's file, the
/// recipe's scenario file where it has one (none for a situation it runs from the shared file), and the whole
/// cause read from the run's report.json (the matrix keeps its first clause).
@Suite struct CIOutputMatrixTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let cause = "rename /backups/0-1/Library.sqlite.tmp -> /backups/0-1/Library.sqlite at 0.41 s by backup-0 (cp) was never followed by an fsync of its directory /backups/0-1; "
        + "write of 4096 bytes at 0 to /backups/0-1/Library.sqlite.tmp at 0.40 s by backup-0 (cp) was never followed by an fsync of /backups/0-1/Library.sqlite.tmp; "
        + "the crash at 0.43 s dropped them: the rename onto /backups/0-1/Library.sqlite was undone"

    static func run(seed: Int, report: String) -> String {
        #"{"seed": \#(seed), "runID": "r\#(seed)", "held": false, "violated": ["backup-durable"], "failures": [], "evidence": [], "cause": "rename /backups/0-1/Library.sqlite.tmp -> /backups/0-1/Library.sqlite at 0.41 s by backup-0 (cp) was never followed by an fsync of its directory /backups/0-1", "#
            + #""findings": [{"invariant": "backup-durable", "consequence": "lost", "severity": 2, "evidence": "backup-0 (command): gone", "cause": "rename", "fix": "fsync", "appsOwn": false}], "#
            + #""expectation": "pass", "expectationMet": false, "seconds": 1, "report": "\#(report)", "repro": "repros/cp-a-crash-during-backup-seed\#(seed).yaml"}"#
    }

    @Test func aRecipesFindingPointsAtItsScriptAndScenarioWithTheWholeCause() throws {
        let scratch = try Scratch("matrix-ci")
        let folder = scratch.path("matrix")
        // The first seed's report holds the whole cause.
        let report = folder.appendingPathComponent("runs/r1")
        try FileManager.default.createDirectory(at: report, withIntermediateDirectories: true)
        let verdict = #"{"invariant": "backup-durable", "status": "violated", "summary": "s", "evidence": [], "cause": "\#(Self.cause)"}"#
        let result = #"{"schema": "lifeboat.run/4", "runID": "r1", "scenario": "cp-a-crash-during-backup", "scenarioFile": "f", "description": "d", "seed": 1, "expectation": "pass", "expectationMet": false, "startedAt": "t", "seconds": 1, "verdicts": [\#(verdict)], "events": [], "writers": [], "operations": [], "faults": [], "metrics": {}, "errors": []}"#
        try Data(result.utf8).write(to: report.appendingPathComponent("report.json"))
        let matrix = #"{"schema": "lifeboat.matrix/3", "matrixID": "m", "directory": "Scenarios/tools", "command": "c", "startedAt": "t", "seconds": 1, "seeds": [1, 2], "tools": [], "situations": [], "situationNotes": {}, "environmentErrors": [], "versionChanges": [], "cells": ["#
            + #"{"recipe": "cp-a", "situation": "crash-during-backup", "scenario": "cp-a-crash-during-backup", "runs": [\#(Self.run(seed: 1, report: "runs/r1")), \#(Self.run(seed: 2, report: "runs/r2"))]}, "#
            + #"{"recipe": "cp-a", "situation": "crash-after-backup", "scenario": "cp-a-crash-after-backup", "runs": [\#(Self.run(seed: 1, report: "runs/r3"))]}]}"#
        let decoded = try JSONDecoder().decode(ToolMatrix.Result.self, from: Data(matrix.utf8))
        let recipes = try ToolMatrix.discover(Self.root.appendingPathComponent("Scenarios/tools")).filter { $0.tool == "cp-a" }
        let items = CIOutput.findings(matrix: decoded, recipes: recipes, folder: folder, typed: nil, workingDirectory: Self.root)
        #expect(items.count == 1)
        let item = try #require(items.first)
        #expect(item.program == "cp-a")
        #expect(item.situation == "cp-a crash-during-backup,crash-after-backup")
        #expect(item.place == "cp-a crash-during-backup (2/2 seeds), crash-after-backup")
        #expect(item.programFile == "Scenarios/tools/cp-a/backup.sh")
        #expect(item.scenarioFile == "Scenarios/tools/cp-a/crash-during-backup.yaml")
        #expect(item.scenarioLine == nil)  // its steps are in the shared situation it extends
        #expect(item.events.count == 3)
        #expect(CIOutput.verdicts(matrix: decoded) == ["cp-a crash-during-backup: CAUGHT backup-durable (2/2 seeds)",
                                                       "cp-a crash-after-backup: CAUGHT backup-durable (1/1 seeds)"])
    }
}
