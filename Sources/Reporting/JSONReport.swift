import Foundation

/// `report.json`: the run result itself.
public enum JSONReport {
    public static func render(_ result: RunResult) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(result), as: UTF8.self)
    }

    public static func decode(_ data: Data) throws -> RunResult {
        try JSONDecoder().decode(RunResult.self, from: data)
    }
}
