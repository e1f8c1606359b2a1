import ChildProcesses
import Foundation
import LifeboatTestSupport
import Runner
import Testing

/// A small sample of scenario mutants run for real through the `lifeboat` executable: each ends with exit 0, 1
/// or 2 (with a message when it is not 0) within a bound, and the mutant file is left as it was. The parse of
/// hundreds of mutants is ScenarioMutationProperties; `scripts/fuzz-scenarios.py` runs a thousand.
@Suite(.serialized, .ownThread) struct ScenarioMutantRunTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios")

    @Test(arguments: [3, 11, 29] as [UInt64])
    func aMutantRunEndsWithAnExpectedExitCode(_ seed: UInt64) throws {
        let scratch = try Scratch("cli-mutant-run")
        let copy = scratch.path("Scenarios")
        try FileManager.default.copyItem(at: Self.scenarios, to: copy)
        let text = try String(contentsOf: copy.appendingPathComponent("smoke.yaml"), encoding: .utf8)
        let mutated = ScenarioMutation.mutate(text, seed: seed)
        let mutant = copy.appendingPathComponent("mutant.yaml")
        try mutated.write(to: mutant, atomically: true, encoding: .utf8)
        let log = scratch.path("out.log").path
        let child = try SpawnedChild.start(ChildSpec(
            name: "lifeboat", executable: try LifeboatExecutable.locate().path,
            arguments: ["run", mutant.path, "--reports", scratch.path("reports").path, "--scratch", scratch.path("scratch").path],
            output: .file(log), ownProcessGroup: true))
        let termination = child.wait(timeout: 300)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(!termination.timedOut, "mutant \(seed) hung:\n\(mutated)")
        #expect([0, 1, 2].contains(termination.exitCode) && termination.signal == nil, "mutant \(seed): exit \(termination.exitCode):\n\(output)\n\(mutated)")
        if termination.exitCode != 0 { #expect(!output.isEmpty, "mutant \(seed) failed without a message") }
        #expect(try String(contentsOf: mutant, encoding: .utf8) == mutated, "the run changed its input")
    }
}
