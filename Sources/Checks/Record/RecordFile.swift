import Foundation

/// `record.json` in a run directory: the run record as JSON, the input of `lifeboat judge RUN_DIR`.
public enum RecordFile {
    public static let name = "record.json"

    public static func encode(_ record: RunRecord) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(record), as: UTF8.self)
    }

    /// Reads a stored record; a file of another schema is refused with what was found.
    public static func read(_ url: URL) throws -> RunRecord {
        let data = try Data(contentsOf: url)
        struct Header: Decodable { var schema: String? }
        let schema = try? JSONDecoder().decode(Header.self, from: data).schema
        guard schema == RunRecord.schemaVersion else {
            throw RecordFileError(message: "\(url.path) is not a run record of schema \(RunRecord.schemaVersion) (found \(schema ?? "no schema"))")
        }
        return try JSONDecoder().decode(RunRecord.self, from: data)
    }
}

public struct RecordFileError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
