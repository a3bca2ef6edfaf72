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
            guard let connection else { return }
            for frame in codec.frames(for: .dtmf(digit: String(digit))) { connection.send(EncodedFrame(frame)) }
        }
    }

    /// Sends the dialect's finalize request and waits for the result it flushes (Deepgram
    /// `Results` with `from_finalize`): `finalize_ms` is the time between them.
    func finalize(timeoutMs: Int, onTimeout: StepTimeoutPolicy) async throws {
        guard let connection else { return }
        let sentAt = MonotonicInstant.now()
        caller.finalizeSentAt = sentAt
        caller.finalizedAt = nil
        for frame in codec.frames(for: .commit) { connection.send(EncodedFrame(frame)) }
        let met = try await waitStep(for: .finalized, step: "finalize", timeoutMs: timeoutMs, onTimeout: onTimeout)
        if met, let finalizedAt = caller.finalizedAt {
            recorder.record(.finalizeMs, microseconds: finalizedAt.microseconds(since: sentAt))
        }
    }
}
