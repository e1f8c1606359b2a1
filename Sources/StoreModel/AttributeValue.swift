import Foundation

/// The value of one attribute of a managed object, in the types Core Data stores in SQLite.
///
/// Dates are kept as Core Data keeps them: seconds since the reference date 2001-01-01 (Unix 978307200).
public enum AttributeValue: Sendable, Hashable, Codable {
    case null
    case integer(Int64)
    case double(Double)
    case string(String)
    case date(Double)
    case bool(Bool)
    case uuid(UUID)
    case binary(Data)

    /// Unix time of Core Data's reference date.
    public static let referenceDateUnixTime: Double = 978_307_200

    /// A date value from a Foundation date.
    public static func date(_ date: Date) -> AttributeValue {
        .date(date.timeIntervalSinceReferenceDate)
    }

    /// The bytes of a binary value, or nil for other cases.
    public var binaryData: Data? {
        if case .binary(let data) = self { return data }
        return nil
    }
}
