import Crypto
import Foundation
import StoreModel

/// The hash of an object's state (attributes, relationships, blob bytes), the same whether computed by the
/// writer that saved it or by a checker reading it back from any copy of the store.
public enum ObjectHash {
    public static func of(_ object: ManagedObject) -> String {
        var hasher = SHA256()
        hasher.update(data: Data("\(object.entity)|\(object.id.uuidString)".utf8))
        for (name, value) in object.attributes.sorted(by: { $0.key < $1.key }) {
            hasher.update(data: Data("|\(name)=".utf8))
            switch value {
            case .binary(let data):
                hasher.update(data: Data("b\(data.count):".utf8))
                hasher.update(data: data)
            default:
                hasher.update(data: Data("\(value)".utf8))
            }
        }
        for (name, target) in object.toOne.sorted(by: { $0.key < $1.key }) {
            hasher.update(data: Data("|>\(name)=\(target.uuidString)".utf8))
        }
        for (name, targets) in object.toMany.sorted(by: { $0.key < $1.key }) where !targets.isEmpty {
            hasher.update(data: Data("|>>\(name)=\(targets.map(\.uuidString).sorted().joined(separator: ","))".utf8))
        }
        return hasher.finalize().prefix(12).map { String(format: "%02x", $0) }.joined()
    }
}
