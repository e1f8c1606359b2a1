import Crypto
import Foundation
import PropertyBased
import StoreModel
import Testing
@testable import Workload

/// `ObjectHash` builds its text by hand for speed; the hashes it gives must stay the ones it gave when it printed
/// each value by reflection, or every acknowledgement log and stored record would stop matching its store. The
/// reference below is that earlier code, kept as the oracle.
@Suite struct ObjectHashTests {
    static func reference(_ object: ManagedObject) -> String {
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

    /// Values whose printed form has edges: quotes, escapes and non-ASCII in strings, signed zero, infinities,
    /// NaN, huge and tiny doubles, the extreme integers.
    static let edges: [AttributeValue] = [
        .null, .integer(0), .integer(.min), .integer(.max), .double(0), .double(-0.0), .double(.infinity),
        .double(-.infinity), .double(.nan), .double(0.1), .double(1e300), .double(.leastNonzeroMagnitude), .double(-123.456),
        .date(0), .date(754_000_000.25), .bool(true), .bool(false), .uuid(UUID()),
        .string(""), .string("plain"), .string("quote \" and \\ backslash"), .string("tab\tnew\nline\r"),
        .string("é ß 中文 🦀 \u{0}\u{7f}\u{200b}"), .binary(Data()), .binary(Data([0, 255, 10])),
    ]

    @Test func everyEdgeValueDescribesAsTheReflectedPrintDid() {
        for value in Self.edges where value.binaryData == nil {
            #expect(ObjectHash.description(of: value) == "\(value)")
        }
    }

    @Test func hashesAreTheReferenceHashesForEveryEdgeValue() {
        let targets = (0..<4).map { _ in UUID() }
        for (index, value) in Self.edges.enumerated() {
            var object = ManagedObject(entity: "Book", id: UUID())
            object.attributes["a\(index)"] = value
            object.attributes["title"] = .string("t\(index)")
            object.toOne["shelf"] = targets[index % 4]
            object.toMany["tags"] = Array(targets.prefix(index % 4))
            object.toMany["empty"] = []
            #expect(ObjectHash.of(object) == Self.reference(object), "\(value)")
        }
    }

    @Test func hashesAreTheReferenceHashesForGeneratedObjects() async {
        let text = Gen<Character>.letterOrNumber.string(of: 0...12)
        await propertyCheck(count: 300, input: Gen.int64(), Gen.double(in: -1e12...1e12), text, Gen.bool, Gen.int(in: 0...5)) {
            integer, double, string, flag, relations in
            var object = ManagedObject(entity: "Note\(relations)", id: UUID())
            object.attributes = ["count": .integer(integer), "score": .double(double), "body": .string(string + "\"\u{e9}"),
                                 "done": .bool(flag), "when": .date(double / 7), "blob": .binary(Data(string.utf8))]
            object.toMany["links"] = (0..<relations).map { _ in UUID() }
            if relations > 2 { object.toOne["owner"] = UUID() }
            #expect(ObjectHash.of(object) == Self.reference(object))
        }
    }
}
