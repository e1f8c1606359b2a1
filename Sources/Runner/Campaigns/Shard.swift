import Foundation
import Reporting

/// `--shard K/N`: the K-th of N slices of a many-runs command (1-based): `run --seeds`, `matrix`, `try`,
/// `try --deep` and `walk` all parse it here, and `RunLoop.slice` is its one slicing rule.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// More shards than this is a typo, not a CI matrix.
    public static let maximumCount = 1000
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/N` with 1 <= K <= N <= `maximumCount`.
    public init(_ text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw SeedList.ParseError(message: "--shard \(text): write K/N, e.g. 2/3 for the second of three shards")
        }
        guard (1...Self.maximumCount).contains(n) else {
            throw SeedList.ParseError(message: "--shard \(text): the number of shards must be between 1 and \(Self.maximumCount)")
        }
        guard (1...n).contains(k) else {
            throw SeedList.ParseError(message: "--shard \(text): the shard must be between 1 and \(n)")
        }
        index = k
        count = n
    }

    public var description: String { "\(index)/\(count)" }

    /// How many of `total` cases this shard runs.
    public func share(of total: Int) -> Int { total < index ? 0 : (total - index) / count + 1 }
    public var info: SuiteSummary.ShardInfo { SuiteSummary.ShardInfo(index: index, count: count) }
}
