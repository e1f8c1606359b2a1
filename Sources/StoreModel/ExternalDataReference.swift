import Foundation

/// The content of a binary column whose attribute allows external storage.
///
/// Core Data prefixes such values with a marker byte: 0x01 = the bytes follow inline; 0x02 = a file name follows
/// (a UUID string, NUL-terminated), and the bytes are in `_EXTERNAL_DATA/<name>`.
public enum ExternalDataReference: Sendable, Hashable {
    case inline(Data)
    case external(fileName: String)

    public static let inlineMarker: UInt8 = 0x01
    public static let externalMarker: UInt8 = 0x02

    public var encoded: Data {
        switch self {
        case .inline(let data):
            var bytes = Data([Self.inlineMarker])
            bytes.append(data)
            return bytes
        case .external(let name):
            var bytes = Data([Self.externalMarker])
            bytes.append(contentsOf: Array(name.utf8))
            bytes.append(0)
            return bytes
        }
    }

    /// Decodes a column value; nil when it carries no marker (a plain binary attribute).
    public init?(encoded data: Data) {
        guard let marker = data.first else { return nil }
        let rest = data.dropFirst()
        switch marker {
        case Self.inlineMarker:
            self = .inline(Data(rest))
        case Self.externalMarker:
            guard let nul = rest.firstIndex(of: 0), nul == rest.endIndex - 1,
                  let name = String(data: rest[rest.startIndex..<nul], encoding: .utf8),
                  UUID(uuidString: name) != nil
            else { return nil }
            self = .external(fileName: name)
        default:
            return nil
        }
    }
}
