import Foundation

/// `report.json`: the run result itself.
public enum JSONReport {
    public static func render(_ result: RunResult) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(result), as: UTF8.self)
    }

    /// Reads lifeboat.run/1 and /2 reports (fields added in 2 are optional); another schema is an error.
    public static func decode(_ data: Data) throws -> RunResult {
        let result = try JSONDecoder().decode(RunResult.self, from: data)
        guard RunResult.readableSchemas.contains(result.schema) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription:
                "report schema \(result.schema) is not one this Lifeboat reads (\(RunResult.readableSchemas.sorted().joined(separator: ", ")))"))
        }
        return result
    }
}
