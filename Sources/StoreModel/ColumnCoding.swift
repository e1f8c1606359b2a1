import Foundation
import GRDB

/// Conversion between attribute values and SQLite column values, as Core Data stores each type.
enum ColumnCoding {
    static func uuidBytes(_ id: UUID) -> Data {
        withUnsafeBytes(of: id.uuid) { Data($0) }
    }

    static func uuid(_ data: Data) -> UUID? {
        guard data.count == 16 else { return nil }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { $0.copyBytes(from: data) }
        return UUID(uuid: bytes)
    }

    /// Encodes a value that is not externally stored.
    static func encode(_ value: AttributeValue, _ attribute: AttributeDescription) throws -> DatabaseValue {
        switch (value, attribute.type) {
        case (.null, _): return .null
        case (.integer(let v), .integer64): return v.databaseValue
        case (.double(let v), .double): return v.databaseValue
        case (.string(let v), .string): return v.databaseValue
        case (.date(let v), .date): return v.databaseValue
        case (.bool(let v), .bool): return (v ? 1 : 0).databaseValue
        case (.uuid(let v), .uuid): return uuidBytes(v).databaseValue
        case (.binary(let v), .binary): return v.databaseValue
        default: throw StoreError.invalidObject("value \(value) does not fit attribute \(attribute.name) of type \(attribute.type.rawValue)")
        }
    }

    /// Decodes a column value; external references are resolved by `resolveExternal` (nil: the value is nil).
    static func decode(_ value: DatabaseValue, _ attribute: AttributeDescription,
                       resolveExternal: (String) throws -> Data?) throws -> AttributeValue {
        if value.isNull { return .null }
        switch attribute.type {
        case .integer64: return Int64.fromDatabaseValue(value).map(AttributeValue.integer) ?? .null
        case .double: return Double.fromDatabaseValue(value).map(AttributeValue.double) ?? .null
        case .string: return String.fromDatabaseValue(value).map(AttributeValue.string) ?? .null
        case .date: return Double.fromDatabaseValue(value).map(AttributeValue.date) ?? .null
        case .bool: return Int64.fromDatabaseValue(value).map { .bool($0 != 0) } ?? .null
        case .uuid: return Data.fromDatabaseValue(value).flatMap(uuid).map(AttributeValue.uuid) ?? .null
        case .binary:
            guard let data = Data.fromDatabaseValue(value) else { return .null }
            guard attribute.allowsExternalStorage, let reference = ExternalDataReference(encoded: data) else {
                return .binary(data)
            }
            switch reference {
            case .inline(let bytes): return .binary(bytes)
            case .external(let name): return try resolveExternal(name).map(AttributeValue.binary) ?? .null
            }
        }
    }
}
