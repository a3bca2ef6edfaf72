import WSCore

/// The `backchannel` step (docs/scenarios.md): at each point of the agent's answer it names,
/// the caller says "mm-hmm" over it and goes on listening. Like the other steps, the async
/// function only sequences and awaits; what it computes is out of line (`VirtualClient+Steps.swift`).
extension VirtualClient {
    @inline(never)
    func execute(_ backchannel: BackchannelStep) async throws {
        for afterHeardMs in backchannel.afterHeardMs {
            let heard = try await waitStep(
                for: .heard(targetUs: Int64(afterHeardMs) * 1_000),
                step: "backchannel",
                timeoutMs: backchannel.timeoutMs,
                onTimeout: backchannel.onTimeout
            )
            guard heard else { return }
            let clipMs = try startBackchannel(backchannel)
            try await waitStep(for: .clipSent, step: "backchannel", timeoutMs: clipMs + 10_000)
        }
    }

    /// Opens the microphone on the backchannel's clip; returns the clip's length. It is not an
    /// utterance: no turn row, and no commit on dialects where the client ends its turns.
    @inline(never)
    private func startBackchannel(_ backchannel: BackchannelStep) throws -> Int {
        guard let frames = frameSets[backchannel.clip.audioKey] else {
            throw SessionFailure(.generatorError, .text("no prepared audio for \(backchannel.clip.audioPath)"))
        }
        let micOpenAt = openMicrophone(speaking: frames)
        attempt.backchannelStarted(
            micOpenAt: micOpenAt,
            speechStartUs: frames.utterance.boundaries.speechStartUs,
            stopWindowMs: backchannel.stopWindowMs
        )
        return frames.frames.count * frames.frameMs
    }
}
