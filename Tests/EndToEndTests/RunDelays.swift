import VoiceLoad

/// What a run against the in-process simulator measured of its own delays, for the checks that
/// hold a measured latency to the simulator's injected one.
///
/// A reply leaves when the simulator's timer fires and counts when the caller's loop reads it:
/// each wake-up late by as much as `simulator_reply_late_ms` and `receive_lag_ms` say, both in
/// the report and both rightly inside the latency measured (the simulator shares the process and
/// the cores). So a turn measures the injected latency plus at most their sum, and no less.
///
/// Every session of a test run starts together and speaks the same clip, so their replies fall
/// due at one instant: one stall of the host there moves every turn, the median with them. Stop
/// 46's CI measured a Flux median 6.2 ms over the injected latency, against a tolerance of 2 ms
/// plus the 3.2 ms the host's idle thread had woken late at the suite's start (HostTimer). The
/// checks allow their own tolerance beyond what the run itself measured, not a figure guessed
/// for the host.
enum RunDelays {
    /// The simulator's longest reply-timer lateness plus the caller's longest receive lag, in ms:
    /// how much later than the injected latency a turn may read with nothing mismeasured.
    static func stallMs(of report: RunReport) -> Double {
        (report.generator.simulatorReplyLateMs?.max ?? 0) + (report.generator.receiveLagMs?.max ?? 0)
    }

    /// Whether `measuredMs` is the injected latency within `toleranceMs` beyond the run's own
    /// measured delays.
    static func matches(_ measuredMs: Double, injectedMs: Double, toleranceMs: Double, in report: RunReport) -> Bool {
        abs(measuredMs - injectedMs) <= toleranceMs + stallMs(of: report)
    }
}
