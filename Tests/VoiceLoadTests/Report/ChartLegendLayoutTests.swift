import Foundation
import Testing

@testable import VoiceLoad

/// A chart's legend never runs under its title: beside the title when both fit on one row,
/// on a row of its own below it otherwise (scripts/check-html-report.sh measures the same in
/// Chromium).
@Suite("Charts: the legend keeps clear of the title")
struct ChartLegendLayoutTests {
    static func chart(title: String, series names: [String]) -> SVGChart {
        SVGChart(
            title: title,
            xLabel: "concurrent clients",
            yLabel: "ms",
            series: names.map { SVGChart.Series(name: $0, color: "#000", style: .line, points: [(1, 1), (2, 2)]) }
        )
    }

    /// The x of the legend's first swatch and the y of the title's and legend's text baselines.
    static func layout(_ svg: String) throws -> (legendX: Double, legendTextY: Double, titleY: Double) {
        let legend = try #require(svg.range(of: "<g class=\"legend\">"))
        let after = String(svg[legend.upperBound...])
        func number(_ attribute: String, in text: String) throws -> Double {
            let start = try #require(text.range(of: " \(attribute)=\""))
            let rest = text[start.upperBound...]
            let end = try #require(rest.firstIndex(of: "\""))
            return try #require(Double(rest[..<end]))
        }
        let textStart = try #require(after.range(of: "<text "))
        let titleStart = try #require(svg.range(of: "<text class=\"chart-title\""))
        return (
            try number("x", in: after),
            try number("y", in: String(after[textStart.lowerBound...])),
            try number("y", in: String(svg[titleStart.lowerBound...]))
        )
    }

    @Test(
        "the legend starts right of where the title can end, or on a row below it",
        arguments: [
            "first_audio_from_end_ms.p95 (SLO < 1500 ms)", "error_rate (SLO <= 1%)",
            "first_voiced_audio_from_end_ms.p99 (SLO < 1200 ms)", "user_tr_first_partial_ms.p99.9 (SLO < 2500 ms) over every step",
        ]
    )
    func legendKeepsClearOfTheTitle(title: String) throws {
        let chart = Self.chart(title: title, series: ["measured", "passed", "failed", "SLO bound"])
        let layout = try Self.layout(chart.render())
        switch chart.legendRow {
        case .title: #expect(layout.legendX >= 64 + SVGChart.titleWidthPx(title) + SVGChart.legendGapPx)
        case .own: #expect(layout.legendTextY >= layout.titleY + 13, "below the title's 13 px line")
        case .none: Issue.record("four series and no legend")
        }
    }

    @Test("a title too long to share its row pushes the legend to a row of its own")
    func longTitleGetsItsOwnLegendRow() throws {
        let chart = Self.chart(
            title: "first_voiced_audio_from_end_ms.p95 (SLO < 12000.5 ms)",
            series: ["measured", "passed", "failed", "SLO bound"]
        )
        #expect(chart.legendRow == .own)
        let layout = try Self.layout(chart.render())
        #expect(layout.legendTextY >= layout.titleY + 13)
    }

    @Test("a short title keeps the legend beside it, right of where the title can end")
    func shortTitleSharesItsRow() throws {
        let title = "first audio (ms)"
        let chart = Self.chart(title: title, series: ["p50", "p95", "max"])
        #expect(chart.legendRow == .title)
        let layout = try Self.layout(chart.render())
        #expect(layout.legendTextY == layout.titleY + 1)
        #expect(layout.legendX >= 64 + SVGChart.titleWidthPx(title) + SVGChart.legendGapPx)
        #expect(layout.legendX + 3 * 50 <= 880, "inside the chart")
    }

    @Test("one series: no legend")
    func oneSeriesHasNoLegend() {
        let chart = Self.chart(title: "errors", series: ["errors"])
        #expect(chart.legendRow == .none)
        #expect(!chart.render().contains("class=\"legend\""))
    }

    @Test("the title estimate is an upper bound: 8.5 px a character for 13 px semibold text")
    func titleEstimateIsGenerous() {
        // Chromium measured the capacity title above at 338.8 px: 7.7 px a character.
        #expect(SVGChart.titleWidthPx("first_audio_from_end_ms.p95 (SLO < 1500 ms)") >= 338.8 + 10)
    }
}
