import Foundation

/// A threshold judged on a run: its result (which says whether it passed, failed, or could not
/// be judged, which makes the run invalid), and what more samples would settle.
package struct ThresholdCheck: Sendable, Hashable {
    package typealias Status = ThresholdStatus

    package var result: ThresholdResult
    package var status: Status { result.status }
    /// Set when it could not be judged for too few samples on both sides of its bound (more
    /// samples could settle it); nil otherwise, and for a check read back from a report.
    package var shortfall: SampleShortfall?

    /// A check of `result`, or one read back from a report (no shortfall is recorded there).
    package init(result: ThresholdResult, shortfall: SampleShortfall? = nil) {
        self.result = result
        self.shortfall = shortfall
    }

    /// `FAILED first_audio_from_end_ms.p95 < 600: measured 701.7 ms`, `passed …`, `INVALID …: 12 samples: too few for p99`.
    package var line: String {
        switch status {
        case .passed: return "passed \(result.expression): measured \(measuredText)"
        case .failed: return "FAILED \(result.expression): measured \(measuredText)"
        case .invalid: return "INVALID \(result.expression): \(result.reason ?? "cannot be judged")"
        }
    }

    /// The measured figure with its unit (`701.7 ms`, `2.5 %`, `12`), or `n/a`.
    package var measuredText: String {
        guard let measured = result.measured else { return "n/a" }
        let number =
            measured == measured.rounded() && abs(measured) < 1e15
            ? String(Int(measured)) : String(format: "%.1f", measured)
        return result.unit.isEmpty ? number : "\(number) \(result.unit)"
    }
}
