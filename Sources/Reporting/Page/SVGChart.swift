import Foundation

/// The one SVG kit every page's charts are drawn with (the run's timeline, the suite's durations and verdicts,
/// the bench's bars and curves): the `<svg>` element, labelled lanes, bars, lines and markers, linear and log
/// axes with 1-2-5 ticks, and legends. Every text goes through `PageText.html`, every number through `number`,
/// so each chart is well-formed XML and the pages read alike. Inline SVG with no script and no external
/// reference, as `PageStyle` wants.
public enum SVGChart {
    /// The colours every chart uses for the same meaning.
    public enum Color {
        public static let good = "#2e9e4f"
        public static let bad = "#b00020"
        public static let amber = "#e08a00"
        public static let commit = "#3367d6"
        public static let checkpoint = "#7b3fb5"
        public static let walFill = "#c9dbf7"
        public static let muted = "#bbb"
        public static let grid = "#eee"
        public static let frame = "#888"
        public static let axis = "#444"
        /// One colour per series (strategies on the bench page), in order.
        public static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f"]
        public static func series(_ index: Int) -> String { palette[index % palette.count] }
    }

    /// A coordinate or label as short text: "12" for a whole number, "12.35" otherwise.
    public static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
    }

    /// `<svg ...>` of the given size with its accessible name (the checks find charts by it). No `xmlns`: inside
    /// HTML the parser puts it in the SVG namespace, and a page holds no URL at all.
    public static func open(width: Double, height: Double, label: String) -> String {
        let w = number(width), h = number(height)
        return "<svg width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\" role=\"img\" aria-label=\"\(PageText.html(label))\">\n"
    }

    public static let close = "</svg>"

    /// `<title>` (the tooltip) when there is one.
    static func tooltip(_ title: String?) -> String { title.map { "<title>\(PageText.html($0))</title>" } ?? "" }

    /// One element, closed at once or around its tooltip.
    static func element(_ name: String, _ attributes: String, title: String?) -> String {
        title == nil ? "<\(name) \(attributes)/>\n" : "<\(name) \(attributes)>\(tooltip(title))</\(name)>\n"
    }

    public enum Anchor: String { case start, middle, end }

    public static func text(_ content: String, x: Double, y: Double, size: Double? = nil, anchor: Anchor = .start,
                            bold: Bool = false, fill: String? = nil, rotate: Double? = nil) -> String {
        var attributes = rotate.map { "transform=\"translate(\(number(x)) \(number(y))) rotate(\(number($0)))\"" } ?? "x=\"\(number(x))\" y=\"\(number(y))\""
        if let size { attributes += " font-size=\"\(number(size))\"" }
        if anchor != .start { attributes += " text-anchor=\"\(anchor.rawValue)\"" }
        if bold { attributes += " font-weight=\"bold\"" }
        if let fill { attributes += " fill=\"\(fill)\"" }
        return "<text \(attributes)>\(PageText.html(content))</text>\n"
    }

    /// A chart's heading inside its SVG (the bench charts', which sit side by side without an `<h2>`).
    public static func title(_ content: String, x: Double) -> String { text(content, x: x, y: 20, size: 15, bold: true) }

    public static func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double? = nil,
                            dash: String? = nil, title: String? = nil) -> String {
        element("line", "x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\" stroke=\"\(stroke)\""
                + (width.map { " stroke-width=\"\(number($0))\"" } ?? "") + (dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""), title: title)
    }

    public static func rect(x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String? = nil,
                            title: String? = nil) -> String {
        element("rect", "x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(width))\" height=\"\(number(height))\" fill=\"\(fill)\""
                + (stroke.map { " stroke=\"\($0)\"" } ?? ""), title: title)
    }

    public static func circle(cx: Double, cy: Double, r: Double, fill: String, opacity: Double? = nil, title: String? = nil) -> String {
        element("circle", "cx=\"\(number(cx))\" cy=\"\(number(cy))\" r=\"\(number(r))\" fill=\"\(fill)\""
                + (opacity.map { " fill-opacity=\"\(number($0))\"" } ?? ""), title: title)
    }

    /// A path given as its `d` (areas, tick runs, markers).
    public static func path(_ d: String, fill: String? = nil, stroke: String? = nil, width: Double? = nil, title: String? = nil) -> String {
        element("path", "d=\"\(d)\"" + (fill.map { " fill=\"\($0)\"" } ?? "") + (stroke.map { " stroke=\"\($0)\"" } ?? "")
                + (width.map { " stroke-width=\"\(number($0))\"" } ?? ""), title: title)
    }

    /// A series as one line through its points.
    public static func polyline(_ points: [(Double, Double)], stroke: String, width: Double = 2, dash: String? = nil) -> String {
        element("polyline", "fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(number(width))\"" + (dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")
                + " points=\"\(points.map { "\(number($0.0)),\(number($0.1))" }.joined(separator: " "))\"", title: nil)
    }

    /// A diamond centred on (x, y), the mark of a single moment (the cause a finding names).
    public static func diamond(x: Double, y: Double, fill: String, title: String? = nil) -> String {
        path("M\(number(x)) \(number(y - 5))l5 5l-5 5l-5 -5Z", fill: fill, title: title)
    }

    // MARK: Lanes and bars

    /// One labelled lane (a writer, an operation, a scenario, an invariant): its name on the left, a light rule
    /// through its middle from `left` to `right`. `top` is the lane's top, `height` its height.
    public static func lane(_ label: String, top: Double, height: Double, left: Double, right: Double, rule: Bool = true) -> String {
        let middle = top + height / 2
        return text(label, x: 4, y: middle + 4) + (rule ? line(x1: left, y1: middle, x2: right, y2: middle, stroke: Color.grid) : "")
    }

    /// One part of a bar: its length in the chart's units (already scaled), colour and tooltip.
    public struct Segment {
        public var length: Double
        public var color: String
        public var title: String?
        public init(length: Double, color: String, title: String? = nil) {
            self.length = length
            self.color = color
            self.title = title
        }
    }

    /// A horizontal bar of one or more segments from `left` in the lane at `top`, at least 1 unit per segment
    /// so a small count still shows, with `after` written at its end.
    public static func bar(_ segments: [Segment], left: Double, top: Double, height: Double, after: String? = nil,
                           afterSize: Double? = nil) -> String {
        var svg = "", x = left
        for segment in segments {
            let length = max(1, segment.length)
            svg += rect(x: x, y: top, width: length, height: height, fill: segment.color, title: segment.title)
            x += length
        }
        if let after { svg += text(after, x: x + 6, y: top + height / 2 + 4, size: afterSize) }
        return svg
    }

    // MARK: Axes

    /// The step of a linear axis from 0 to `span`: 1, 2 or 5 times a power of ten, about 8 ticks.
    public static func niceStep(_ span: Double) -> Double {
        let raw = span / 8
        let magnitude = pow(10, floor(log10(max(raw, 1e-6))))
        for factor in [1.0, 2, 5, 10] where raw <= factor * magnitude { return factor * magnitude }
        return 10 * magnitude
    }

    /// A linear axis along the bottom at `y`: a tick and a label (`label(value)`) every `niceStep(end)` from 0 to
    /// `end`, each label `labelGap` below the axis.
    public static func bottomAxis(end: Double, y: Double, x: (Double) -> Double, labelGap: Double = 18,
                                  label: (Double) -> String) -> String {
        var svg = "", tick = 0.0
        let step = niceStep(end)
        while tick <= end + 1e-9 {
            svg += line(x1: x(tick), y1: y, x2: x(tick), y2: y + 4, stroke: Color.axis)
            svg += text(label(tick), x: x(tick) - 6, y: y + labelGap)
            tick += step
        }
        return svg
    }

    /// A plot area: its frame, the name of the horizontal axis centred at `xNameY` and that of the vertical one
    /// turned along the left edge.
    public static func frame(left: Double, top: Double, width: Double, height: Double, xName: String, xNameY: Double,
                             yName: String) -> String {
        rect(x: left, y: top, width: width, height: height, fill: "none", stroke: Color.frame)
            + text(xName, x: left + width / 2, y: xNameY, size: 12, anchor: .middle)
            + text(yName, x: 16, y: top + height / 2, size: 12, anchor: .middle, rotate: -90)
    }

    /// A base-10 log axis over positive values, padded so single points sit inside, with 1-2-5 ticks.
    public struct LogAxis: Sendable {
        public var low: Double
        public var high: Double

        public init(values: [Double]) {
            let positive = values.filter { $0 > 0 }
            var low = log10(positive.min() ?? 1), high = log10(positive.max() ?? 10)
            if high - low < 0.3 {
                low -= 0.3
                high += 0.3
            }
            let pad = (high - low) * 0.08
            self.low = low - pad
            self.high = high + pad
        }

        /// Where `value` falls, 0 at the low end and 1 at the high.
        public func position(_ value: Double) -> Double { (log10(max(value, 1e-12)) - low) / (high - low) }

        public func ticks() -> [Double] {
            var ticks: [Double] = []
            let multipliers: [Double] = high - low > 2.5 ? [1] : high - low > 1.2 ? [1, 3] : [1, 2, 5]
            for exponent in Int(floor(low))...Int(ceil(high)) {
                for multiplier in multipliers {
                    let tick = multiplier * pow(10, Double(exponent))
                    let position = log10(tick)
                    if position >= low, position <= high { ticks.append(tick) }
                }
            }
            return ticks
        }
    }

    // MARK: Legends

    /// What a legend entry shows before its label.
    public enum Swatch {
        /// A filled box (a bar's colour), with an optional outline.
        case box(String, stroke: String? = nil)
        /// A narrow upright box (a checkpoint).
        case narrowBox(String)
        /// An upright tick (a commit; dashed for a fault).
        case tick(String, dash: String? = nil)
        /// A short line (a series; dashed for the checker).
        case line(String, dash: String? = nil)
        case dot(String)
        case diamond(String)

        var width: Double {
            if case .line = self { return 22 }
            return 12
        }

        /// The swatch drawn with its left edge at `x`, centred on `y`.
        func draw(x: Double, y: Double) -> String {
            let middle = x + width / 2
            switch self {
            case let .box(fill, stroke): return SVGChart.rect(x: x, y: y - 5, width: 12, height: 10, fill: fill, stroke: stroke)
            case let .narrowBox(fill): return SVGChart.rect(x: middle - 3, y: y - 6, width: 6, height: 12, fill: fill)
            case let .tick(color, dash): return SVGChart.line(x1: middle, y1: y - 6, x2: middle, y2: y + 6, stroke: color, dash: dash)
            case let .line(color, dash): return SVGChart.line(x1: x, y1: y, x2: x + width, y2: y, stroke: color, width: 2, dash: dash)
            case let .dot(fill): return SVGChart.circle(cx: middle, cy: y, r: 3.5, fill: fill)
            case let .diamond(fill): return SVGChart.diamond(x: middle, y: y, fill: fill)
            }
        }
    }

    /// A legend in one row from (x, y), each entry as wide as its label needs.
    public static func legendRow(_ items: [(Swatch, String)], x: Double, y: Double, size: Double? = nil) -> String {
        var svg = "", x = x
        for (swatch, label) in items {
            svg += swatch.draw(x: x, y: y) + text(label, x: x + swatch.width + 4, y: y + 4, size: size)
            x += swatch.width + 12 + Double(label.count) * 6.2
        }
        return svg
    }

    /// A legend in one column from (x, y), an entry every 20 units (beside a plot, one per series).
    public static func legendColumn(_ items: [(Swatch, String)], x: Double, y: Double, size: Double? = 12) -> String {
        items.enumerated().map { index, item in
            let ly = y + Double(index) * 20
            return item.0.draw(x: x, y: ly) + text(item.1, x: x + item.0.width + 6, y: ly + 4, size: size)
        }.joined()
    }
}
