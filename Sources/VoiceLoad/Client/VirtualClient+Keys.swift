import WSCore

/// Steps that send one control message of the dialect: the caller's keypad (`dtmf`) and a
/// speech-to-text flush (`finalize`).
extension VirtualClient {
    /// Presses each key of `digits`, `intervalMs` apart (Twilio sends one `dtmf` per key).
    func pressKeys(_ digits: String, intervalMs: Int) async throws {
        for (index, digit) in digits.enumerated() {
            if index > 0, intervalMs > 0 {
                let until = MonotonicInstant.now().advanced(byMilliseconds: Int64(intervalMs))
                try await waitStep(for: .until(until), step: "dtmf", timeoutMs: intervalMs + 10_000)
            }
            guard connection != nil else { return }
            perform(attempt.send(.dtmf(digit: String(digit))))
        }
    }

    /// Sends the dialect's finalize request and waits for the result it flushes (Deepgram
    /// `Results` with `from_finalize`); the attempt measures `finalize_ms` between them.
    func finalize(timeoutMs: Int, onTimeout: StepTimeoutPolicy) async throws {
        guard connection != nil else { return }
        perform(attempt.finalizeRequested(at: .now()))
        try await waitStep(for: .finalized, step: "finalize", timeoutMs: timeoutMs, onTimeout: onTimeout)
    }
}
