import Foundation

/// The seeds of a campaign, written as ranges and single seeds: `1-200`, `1-5,9,20-22`. Kept in the order
/// given; a seed given twice, a range written backwards, a number that is not one and a list longer than
/// `maximumCount` are refused with a message that names the piece at fault.
public struct SeedList: Sendable, Equatable, CustomStringConvertible {
    /// More seeds than this is a typo (a campaign of a million runs takes weeks), not a plan.
    public static let maximumCount = 100_000

    public let seeds: [UInt64]
    /// The text as given, trimmed (shown in reports and part of the campaign's identity through its pairs).
    public let text: String

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let message: String
        public var description: String { message }
    }

    public init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw ParseError(message: "--seeds: no seeds given (write e.g. 1-200 or 1-5,9,20-22)") }
        var seeds: [UInt64] = []
        var seen = Set<UInt64>()
        for (position, piece) in trimmed.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let part = piece.trimmingCharacters(in: .whitespaces)
            func fail(_ why: String) -> ParseError {
                ParseError(message: "--seeds \(trimmed): piece \(position + 1) (\"\(part)\") \(why)")
            }
            guard !part.isEmpty else { throw fail("is empty") }
            let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let low = Self.number(bounds[0]) else { throw fail("is not a seed or a range (seeds are whole numbers 0...\(UInt64.max))") }
            var high = low
            if bounds.count == 2 {
                guard let value = Self.number(bounds[1]) else { throw fail("is not a range A-B of whole numbers 0...\(UInt64.max)") }
                high = value
            }
            guard low <= high else { throw fail("runs backwards (write \(high)-\(low))") }
            // high - low cannot overflow (low <= high); the count check comes before any seed is added.
            guard high - low < UInt64(Self.maximumCount), seeds.count + Int(high - low) + 1 <= Self.maximumCount else {
                throw ParseError(message: "--seeds \(trimmed): more than \(Self.maximumCount) seeds; split the campaign (--shard) or give fewer")
            }
            var seed = low
            while true {
                guard seen.insert(seed).inserted else { throw fail("repeats seed \(seed), given earlier in the list") }
                seeds.append(seed)
                if seed == high { break }
                seed += 1
            }
        }
        self.seeds = seeds
        self.text = trimmed
    }

    static func number(_ text: String) -> UInt64? {
        guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
        return UInt64(text)
    }

    public var description: String { text }
}
