import Foundation

/// A chart drawn as inline SVG: lines and bars over numeric axes, with a title, axis labels
/// and a legend. Output is a pure function of the data (fixed-precision numbers), so a report
/// renders byte for byte the same every time.
struct SVGChart {
    enum Style {
        /// A line through the points, each point marked.
        case line
        /// A bar per point, `width` wide in x units, starting at the point's x.
        case bars(width: Double)
        /// Each point marked, with its figures as a tooltip; no line.
        case markers
        /// A dashed line through the points, unmarked: a bound.
        case dashed
    }

    struct Series {
        var name: String
        /// A CSS colour.
        var color: String
        var style: Style
        var points: [(x: Double, y: Double)]
    }

    var title: String
    var xLabel: String
    var yLabel: String
    var series: [Series]
    /// The x extent to show (the whole run for time charts); the data's extent when nil.
    var xRange: ClosedRange<Double>?
    /// Counts: y ticks on whole numbers.
    var wholeY = false
    /// Stretches of x shaded behind the series, each with its tooltip (the run's outages).
    var shadedX: [(from: Double, to: Double, label: String)] = []
    var widthPx = 880.0
    var heightPx = 260.0

    private var left: Double { 64 }
    private var right: Double { 16 }
    /// Room above the plot: the title's row, and the legend's when it has a row of its own.
    private var top: Double { legendRow == .own ? 52 : 34 }
    private var bottom: Double { 46 }

    /// Where the legend goes: beside the title, right-aligned, when both fit on one row by a
    /// generous estimate of their widths; else on a row of its own below the title.
    enum LegendRow {
        case none
        case title
        case own
    }

    /// The row of the legend (none for a chart of one series).
    var legendRow: LegendRow {
        guard series.count > 1 else { return .none }
        let titleEndPx = left + Self.titleWidthPx(title) + Self.legendGapPx
        return titleEndPx <= widthPx - right - legendWidthPx ? .title : .own
    }

    /// The gap kept between the title's end and the legend's start.
    static let legendGapPx = 24.0

    /// An upper estimate of the title's width: 13 px semibold text (CSS `.chart-title`) averages
    /// under 8 px a character in the usual sans-serif fonts (Chromium's: 7.7 px).
    static func titleWidthPx(_ title: String) -> Double { Double(title.count) * 8.5 }

    /// The width of one legend entry: swatch, gap, its 11 px name (under 7 px a character), spacing.
    static func legendEntryWidthPx(_ name: String) -> Double { 16 + Double(name.count) * 7 + 20 }

    private var legendWidthPx: Double { series.map { Self.legendEntryWidthPx($0.name) }.reduce(0, +) }

    /// The chart as an `<svg>` element.
    func render() -> String {
        let points = series.flatMap { line -> [(x: Double, y: Double)] in
            if case .bars(let width) = line.style { return line.points + line.points.map { (x: $0.x + width, y: $0.y) } }
            return line.points
        }
        let id = "chart-" + Self.slug(title)
        var svg = [
            "<svg class=\"chart\" role=\"img\" aria-labelledby=\"\(id)\" viewBox=\"0 0 \(f(widthPx)) \(f(heightPx))\" "
                + "width=\"\(f(widthPx))\" height=\"\(f(heightPx))\" xmlns=\"http://www.w3.org/2000/svg\">",
            "<title id=\"\(id)\">\(HTMLText.escape(title))</title>",
            "<text class=\"chart-title\" x=\"\(f(left))\" y=\"20\">\(HTMLText.escape(title))</text>",
        ]
        guard !points.isEmpty else {
            svg.append("<text class=\"no-data\" x=\"\(f(widthPx / 2))\" y=\"\(f(heightPx / 2))\" text-anchor=\"middle\">no data</text>")
            return (svg + ["</svg>"]).joined(separator: "\n")
        }
        let xMin = xRange?.lowerBound ?? points.map(\.x).min() ?? 0
        let xMax = max(xRange?.upperBound ?? points.map(\.x).max() ?? 1, xMin + 1)
        let yTicks = Self.ticks(upTo: max(points.map(\.y).max() ?? 1, wholeY ? 1 : 1e-9), whole: wholeY)
        let xTicks = Self.ticks(from: xMin, upTo: xMax)
        let yMax = yTicks.last ?? 1
        let xLow = min(xMin, xTicks.first ?? xMin)
        let xHigh = max(xMax, xTicks.last ?? xMax)
        let plotW = widthPx - left - right
        let plotH = heightPx - top - bottom
        func px(_ x: Double) -> Double { left + (x - xLow) / (xHigh - xLow) * plotW }
        func py(_ y: Double) -> Double { top + plotH - y / yMax * plotH }
        func pathData(_ points: [(x: Double, y: Double)]) -> String {
            points.enumerated().map { ($0.offset == 0 ? "M" : "L") + "\(f(px($0.element.x))),\(f(py($0.element.y)))" }
                .joined(separator: " ")
        }
        for band in shadedX {
            let x0 = px(max(band.from, xLow))
            let x1 = px(min(band.to, xHigh))
            svg.append(
                "<rect class=\"shaded\" x=\"\(f(x0))\" y=\"\(f(top))\" width=\"\(f(max(1, x1 - x0)))\" height=\"\(f(plotH))\" "
                    + "fill=\"#fca5a5\" fill-opacity=\"0.35\" stroke=\"none\"><title>\(HTMLText.escape(band.label))</title></rect>"
            )
        }
        svg += axes(xTicks: xTicks, yTicks: yTicks, px: px, py: py)
        for line in series {
            svg.append("<g class=\"series\" fill=\"\(line.color)\" stroke=\"\(line.color)\">")
            switch line.style {
            case .line:
                guard !line.points.isEmpty else { break }
                svg.append("<path d=\"\(pathData(line.points))\" fill=\"none\" stroke-width=\"2\"/>")
                if line.points.count <= 200 {
                    svg += line.points.map { "<circle cx=\"\(f(px($0.x)))\" cy=\"\(f(py($0.y)))\" r=\"2.5\" stroke=\"none\"/>" }
                }
            case .markers:
                svg += line.points.map {
                    "<circle cx=\"\(f(px($0.x)))\" cy=\"\(f(py($0.y)))\" r=\"5\" stroke=\"none\"><title>\(Self.label($0.x)): \(Self.label($0.y))</title></circle>"
                }
            case .dashed:
                guard !line.points.isEmpty else { break }
                svg.append("<path d=\"\(pathData(line.points))\" fill=\"none\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>")
            case .bars(let width):
                for point in line.points where point.y > 0 {
                    let x0 = px(point.x)
                    let x1 = px(point.x + width)
                    svg.append(
                        "<rect x=\"\(f(x0))\" y=\"\(f(py(point.y)))\" width=\"\(f(max(1, x1 - x0 - 1)))\" "
                            + "height=\"\(f(py(0) - py(point.y)))\" stroke=\"none\"><title>\(f(point.x)): \(f(point.y))</title></rect>"
                    )
                }
            }
            svg.append("</g>")
        }
        svg += legend()
        return (svg + ["</svg>"]).joined(separator: "\n")
    }

    private func axes(xTicks: [Double], yTicks: [Double], px: (Double) -> Double, py: (Double) -> Double) -> [String] {
        let x0 = left
        let x1 = widthPx - right
        let yBase = py(0)
        var lines = ["<g class=\"axes\">"]
        for tick in yTicks {
            lines.append("<line class=\"grid\" x1=\"\(f(x0))\" x2=\"\(f(x1))\" y1=\"\(f(py(tick)))\" y2=\"\(f(py(tick)))\"/>")
            lines.append("<text x=\"\(f(x0 - 6))\" y=\"\(f(py(tick) + 4))\" text-anchor=\"end\">\(Self.label(tick))</text>")
        }
        for tick in xTicks {
            lines.append("<text x=\"\(f(px(tick)))\" y=\"\(f(yBase + 16))\" text-anchor=\"middle\">\(Self.label(tick))</text>")
        }
        lines.append("<line class=\"axis\" x1=\"\(f(x0))\" x2=\"\(f(x1))\" y1=\"\(f(yBase))\" y2=\"\(f(yBase))\"/>")
        lines.append("<line class=\"axis\" x1=\"\(f(x0))\" x2=\"\(f(x0))\" y1=\"\(f(top))\" y2=\"\(f(yBase))\"/>")
        lines.append(
            "<text class=\"axis-label\" x=\"\(f(left + (x1 - x0) / 2))\" y=\"\(f(heightPx - 8))\" text-anchor=\"middle\">\(HTMLText.escape(xLabel))</text>"
        )
        let yMid = top + (heightPx - top - bottom) / 2
        lines.append(
            "<text class=\"axis-label\" transform=\"translate(14 \(f(yMid))) rotate(-90)\" text-anchor=\"middle\">\(HTMLText.escape(yLabel))</text>"
        )
        lines.append("</g>")
        return lines
    }

    /// The legend, right-aligned: beside the title (swatches at y 12) or on its own row below it (y 30).
    private func legend() -> [String] {
        let rowY: Double
        switch legendRow {
        case .none: return []
        case .title: rowY = 12
        case .own: rowY = 30
        }
        var x = widthPx - right - legendWidthPx
        var lines = ["<g class=\"legend\">"]
        for entry in series {
            lines.append("<rect x=\"\(f(x))\" y=\"\(f(rowY))\" width=\"12\" height=\"10\" fill=\"\(entry.color)\"/>")
            lines.append("<text x=\"\(f(x + 16))\" y=\"\(f(rowY + 9))\">\(HTMLText.escape(entry.name))</text>")
            x += Self.legendEntryWidthPx(entry.name)
        }
        lines.append("</g>")
        return lines
    }

    /// About five round ticks from `low` to at least `high`.
    static func ticks(from low: Double = 0, upTo high: Double, whole: Bool = false) -> [Double] {
        let span = max(high - low, 1e-9)
        let rough = span / 5
        let magnitude = pow(10, (log10(rough)).rounded(.down))
        let nice = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? rough
        let step = whole ? max(1, nice.rounded(.up)) : nice
        let first = (low / step).rounded(.down) * step
        var ticks: [Double] = []
        while ticks.count < 12 {
            let tick = first + Double(ticks.count) * step
            ticks.append(tick)
            if tick >= high { break }
        }
        return ticks
    }

    static func label(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e12 { return String(Int(value)) }
        return String(format: abs(value) < 1 ? "%.2f" : "%.1f", value)
    }

    static func slug(_ text: String) -> String {
        String(text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
    }

    private func f(_ value: Double) -> String { String(format: "%.1f", value) }
}
