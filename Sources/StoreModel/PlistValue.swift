import Foundation

/// A property-list value kept with its type, for metadata keys this model does not interpret: a key an app set
/// (`setMetadata`) or a newer Core Data wrote comes back with the same type when the plist is rewritten.
public indirect enum PlistValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case array([PlistValue])
    case dictionary([String: PlistValue])

    /// The value PropertyListSerialization decoded, or nil for a type a plist cannot hold.
    public init?(_ value: Any) {
        switch value {
        case let string as String: self = .string(string)
        case let data as Data: self = .data(data)
        case let date as Date: self = .date(date)
        case let array as [Any]:
            var items: [PlistValue] = []
            for item in array { guard let converted = PlistValue(item) else { return nil }; items.append(converted) }
            self = .array(items)
        case let dictionary as [String: Any]:
            var items: [String: PlistValue] = [:]
            for (key, item) in dictionary { guard let converted = PlistValue(item) else { return nil }; items[key] = converted }
            self = .dictionary(items)
        case let bool as Bool where type(of: value) == Bool.self: self = .bool(bool)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": self = .bool(number.boolValue)
            case "f", "d": self = .real(number.doubleValue)
            default: self = .integer(number.int64Value)
            }
        case let integer as Int: self = .integer(Int64(integer))
        case let real as Double: self = .real(real)
        default: return nil
        }
    }

    /// The Foundation object PropertyListSerialization encodes as this type.
    public var object: Any {
        switch self {
        case .string(let v): v
        case .integer(let v): NSNumber(value: v)
        case .real(let v): NSNumber(value: v)
        case .bool(let v): v
        case .date(let v): v
        case .data(let v): v
        case .array(let v): v.map(\.object)
        case .dictionary(let v): v.mapValues(\.object)
        }
    }
}
