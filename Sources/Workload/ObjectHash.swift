import Crypto
import Foundation
import StoreModel

/// The hash of an object's state (attributes, relationships, blob bytes), the same whether computed by the
/// writer that saved it or by a checker reading it back from any copy of the store.
///
/// Every judge reads every object of every copy through this, so it is written for speed: the text it hashes is
/// built in one byte buffer (SHA-256 of the concatenation is the same as of the pieces fed one by one) and a
/// value's text is spelled out per case instead of printed by reflection. The text is exactly what
/// `"\(value)"` printed when this hashed that (`case(payload)`, the payload debug-printed), so hashes in
/// records and acknowledgement logs written before stay valid (`ObjectHashTests` checks it against that form);
/// the digest is spelled by `Hex`.
public enum ObjectHash {
    public static func of(_ object: ManagedObject) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(256)
        text.append(contentsOf: object.entity.utf8)
        text.append(UInt8(ascii: "|"))
        text.append(contentsOf: object.id.uuidString.utf8)
        for (name, value) in object.attributes.sorted(by: { $0.key < $1.key }) {
            text.append(contentsOf: "|\(name)=".utf8)
            if case .binary(let data) = value {
                text.append(contentsOf: "b\(data.count):".utf8)
                text.append(contentsOf: data)
            } else {
                text.append(contentsOf: description(of: value).utf8)
            }
        }
        for (name, target) in object.toOne.sorted(by: { $0.key < $1.key }) {
            text.append(contentsOf: "|>\(name)=".utf8)
            text.append(contentsOf: target.uuidString.utf8)
        }
        for (name, targets) in object.toMany.sorted(by: { $0.key < $1.key }) where !targets.isEmpty {
            text.append(contentsOf: "|>>\(name)=".utf8)
            text.append(contentsOf: targets.map(\.uuidString).sorted().joined(separator: ",").utf8)
        }
        return Hex.string(SHA256.hash(data: text).prefix(12))
    }

    /// A non-binary value as the default description of `AttributeValue` prints it: the case's name, then its
    /// payload as `debugPrint` shows it (a string quoted and escaped).
    static func description(of value: AttributeValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let v): "integer(\(v))"
        case .double(let v): "double(\(String(reflecting: v)))"
        case .string(let v): "string(\(String(reflecting: v)))"
        case .date(let v): "date(\(String(reflecting: v)))"
        case .bool(let v): "bool(\(v))"
        case .uuid(let v): "uuid(\(String(reflecting: v)))"
        case .binary(let v): "binary(\(String(reflecting: v)))"
        }
    }
}
