import Foundation

/// How a strategy's peak memory grows with the store: a least-squares line through (store size, peak RSS).
///
/// The slope is bytes of memory per byte of store. A streaming operation's memory stays flat (the slope is
/// near zero: its buffers do not depend on the store); an operation that loads the store grows with it.
public struct GrowthFit: Codable, Sendable, Equatable {
    public enum Shape: String, Codable, Sendable { case flat, linear, unknown }

    public var subject: String
    /// Bytes of peak RSS per byte of store size.
    public var slope: Double
    /// Peak RSS extrapolated to an empty store, in bytes.
    public var intercept: Double
    public var points: Int
    public var shape: Shape

    /// Memory that grows by less than this share of the store's growth counts as flat.
    public static let flatLimit = 0.10

    public init(subject: String, slope: Double, intercept: Double, points: Int, shape: Shape) {
        self.subject = subject
        self.slope = slope
        self.intercept = intercept
        self.points = points
        self.shape = shape
    }

    /// Fits `points` (store bytes, memory bytes); fewer than two distinct sizes give `.unknown`.
    public static func fit(_ subject: String, _ points: [(size: Double, memory: Double)]) -> GrowthFit {
        let n = Double(points.count)
        let meanX = points.map(\.size).reduce(0, +) / max(n, 1)
        let meanY = points.map(\.memory).reduce(0, +) / max(n, 1)
        let sxx = points.reduce(0) { $0 + ($1.size - meanX) * ($1.size - meanX) }
        let sxy = points.reduce(0) { $0 + ($1.size - meanX) * ($1.memory - meanY) }
        guard points.count >= 2, sxx > 0 else {
            return GrowthFit(subject: subject, slope: 0, intercept: meanY, points: points.count, shape: .unknown)
        }
        let slope = sxy / sxx
        return GrowthFit(subject: subject, slope: slope, intercept: meanY - slope * meanX, points: points.count,
                         shape: slope < flatLimit ? .flat : .linear)
    }

    /// One fit per subject, from the median peak RSS of each result.
    public static func fits(_ results: [BenchReport.Result]) -> [GrowthFit] {
        var order: [String] = []
        for result in results where !order.contains(result.strategy) { order.append(result.strategy) }
        return order.map { subject in
            fit(subject, results.filter { $0.strategy == subject }.map { (Double($0.storeBytes), $0.peakRSSBytes.median) })
        }
    }
}
