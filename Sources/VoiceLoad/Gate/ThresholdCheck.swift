import Foundation

/// A threshold judged on a run: the shared result shape plus whether it passed, failed, or
/// could not be judged (which makes the run invalid).
public struct ThresholdCheck: Sendable, Hashable {
    public enum Status: String, Sendable, Hashable {
        case passed
        case failed
        /// No samples, or too few for the percentile and on both sides of the bound: the run
        /// cannot be judged on it.
        case invalid
    }

    public var result: ThresholdResult
    public var status: Status
    /// Set when it could not be judged for too few samples on both sides of its bound (more
    /// samples could settle it); nil otherwise, and for a check read back from a report.
    public var shortfall: SampleShortfall?

    public init(result: ThresholdResult, status: Status, shortfall: SampleShortfall? = nil) {
        self.result = result
        self.status = status
        self.shortfall = shortfall
    }

    /// A check read back from a report: its status as recorded there.
    public init(result: ThresholdResult) {
        self.init(result: result, status: Status(rawValue: result.status) ?? (result.passed ? .passed : .failed))
    }

    /// `FAILED first_audio_from_end_ms.p95 < 600: measured 701.7 ms`, `passed …`, `INVALID …: 12 samples: too few for p99`.
    public var line: String {
        switch status {
        case .passed: return "passed \(result.expression): measured \(measuredText)"
        case .failed: return "FAILED \(result.expression): measured \(measuredText)"
        case .invalid: return "INVALID \(result.expression): \(result.reason ?? "cannot be judged")"
        }
    }

    /// The measured figure with its unit (`701.7 ms`, `2.5 %`, `12`), or `n/a`.
    public var measuredText: String {
        guard let measured = result.measured else { return "n/a" }
        let number = measured == measured.rounded() && abs(measured) < 1e15
            ? String(Int(measured)) : String(format: "%.1f", measured)
        return result.unit.isEmpty ? number : "\(number) \(result.unit)"
    }
}
