import Foundation
import VoiceLoad

/// Everything about how the built-in agent behaves.
public struct SimulatorConfiguration: Sendable, Hashable {
    public var dialect = "datagrid"
    /// Time from the client's `start` to `ready`.
    public var readyDelayMs = 100
    /// Whether the agent speaks first, and how long after `ready`.
    public var greets = true
    public var greetingDelayMs = 200
    /// End-of-speech detection: this much silence after speech ends the user's turn.
    public var vadSilenceMs = 500
    /// A 10 ms window is speech when its RMS is above this level.
    public var vadThresholdDbfs = -45.0
    /// Speech shorter than this is not a turn (and does not barge in).
    public var vadMinSpeechMs = 60
    /// From the end of the user's speech to the first reply audio. Includes the end-of-speech
    /// window, so it can be no shorter than `vadSilenceMs`.
    public var replyLatency = LatencyModel.fixed(ms: 700)
    /// Seed for latency draws; each session draws from its own stream derived from it.
    public var seed: UInt64 = 1
    /// Reply audio pace: 1 = real time, 2 = twice as fast, 0 = all at once.
    public var replySpeed = 1.0
    public var replyChunkMs = 40
    /// Stop replying and send the dialect's interruption signal when the user talks over the agent.
    public var bargeIn = true
    /// Agent audio; nil means the audio bundled with vload.
    public var greetingWAV: String?
    public var replyWAV: String?

    public init() {}

    /// Rejects settings that cannot work, with a one-line reason.
    public func validate() throws(InputError) {
        guard readyDelayMs >= 0, greetingDelayMs >= 0 else { throw InputError("simulator delays must be ≥ 0 ms") }
        guard (50...10_000).contains(vadSilenceMs) else {
            throw InputError("simulator VAD silence window \(vadSilenceMs) ms is out of range (50–10000 ms)")
        }
        guard replyLatency.minimumMs >= vadSilenceMs else {
            throw InputError(
                "simulator reply latency \(replyLatency) ms is shorter than its end-of-speech window (\(vadSilenceMs) ms); "
                    + "the latency counts from the end of speech, so it must be ≥ the window"
            )
        }
        guard replySpeed >= 0, replySpeed.isFinite else { throw InputError("simulator reply speed must be ≥ 0") }
        guard (10...1_000).contains(replyChunkMs) else { throw InputError("simulator reply chunk must be 10–1000 ms") }
        guard vadThresholdDbfs < 0 else { throw InputError("simulator VAD threshold must be below 0 dBFS") }
    }

    /// The settings as printed in reports.
    public var summary: [String: String] {
        [
            "dialect": dialect,
            "ready_delay_ms": String(readyDelayMs),
            "greets": String(greets),
            "greeting_delay_ms": String(greetingDelayMs),
            "vad_silence_ms": String(vadSilenceMs),
            "vad_threshold_dbfs": String(vadThresholdDbfs),
            "reply_latency_ms": replyLatency.description,
            "seed": String(seed),
            "reply_speed": String(replySpeed),
            "reply_chunk_ms": String(replyChunkMs),
            "barge_in": String(bargeIn),
        ]
    }
}
