import Foundation
import VoiceLoad
import WebRTC

/// Everything about how the built-in agent behaves.
package struct SimulatorConfiguration: Sendable, Hashable {
    package var dialect = "datagrid"
    /// Time from the client's `start` to `ready`.
    package var readyDelayMs = 100
    /// Whether the agent speaks first, and how long after `ready`.
    package var greets = true
    package var greetingDelayMs = 200
    /// End-of-speech detection: this much silence after speech ends the user's turn.
    package var vadSilenceMs = 500
    /// Speech shorter than this is not a turn (and does not barge in).
    package var vadMinSpeechMs = 60
    /// From the end of the user's speech to the first reply audio. Includes the end-of-speech
    /// window, so it can be no shorter than `vadSilenceMs`.
    package var replyLatency = LatencyModel.fixed(ms: 700)
    /// Seed for latency draws; each session draws from its own stream derived from it.
    package var seed: UInt64 = 1
    /// Reply audio pace: 1 = real time, 2 = twice as fast, 0 = all at once.
    package var replySpeed = 1.0
    package var replyChunkMs = 40
    /// Stop replying and send the dialect's interruption signal when the user talks over the agent
    /// (or the client sends an interrupt command); false ignores barge-in entirely.
    package var bargeIn = true
    /// How long the agent keeps speaking after it hears the user talk over it (or gets an
    /// interrupt command) before it stops and sends the interruption signals.
    package var bargeInReactionMs = 0
    /// How long the user must have spoken over the agent before it takes that for a barge-in
    /// (`--sim-barge-in-min-ms`); shorter speech (a backchannel, "mm-hmm") it ignores: it speaks
    /// on, sends no signal and does not answer it. 0: any speech its VAD hears barges in.
    package var bargeInMinSpeechMs = 0
    /// The length of every reply: the reply clip looped or cut to this; nil plays the clip once.
    package var replyDurationMs: Int?
    /// Whether the agent sends the user's transcript (a partial while they speak, a final one
    /// at the end of speech) on dialects that speak.
    package var userTranscripts = true
    /// A tool the agent calls before every reply (not the greeting); nil calls none.
    package var toolCall: String?
    /// The tool call's arguments, as JSON text.
    package var toolArguments = "{}"
    /// From the tool's result (client-side tools) or call (server-side tools) to the reply.
    package var toolLatencyMs = 200
    /// How long the agent waits for a client-side tool's result before it answers anyway.
    package var toolResultTimeoutMs = 5_000
    /// The agent's capacity: this many workers shared by the sessions open at a moment
    /// (processor sharing). With N > `workers` sessions open, every agent-side delay (ready,
    /// greeting, reply latency, tool latency) drawn at that moment is N / `workers` times longer.
    /// nil: unlimited, no delay ever stretches.
    package var workers: Int?
    /// Agent audio; nil means the audio bundled with vload.
    package var greetingWAV: String?
    package var replyWAV: String?
    /// Faults to inject, per session and per reply (`--sim-faults`); empty: none.
    package var faults = FaultPlan()
    /// An outage (`--sim-outage 20s..30s`): every upgrade requested in this window, in ms from
    /// the simulator's start, is refused with HTTP 503; sessions already open go on.
    package var outageMs: Range<Int>?
    /// The SRTP profiles a WebRTC dialect's answerer accepts in DTLS, most preferred first
    /// (`--sim-srtp-profiles`). Its answers are passive, so it is the DTLS server and its order
    /// picks the profile; a caller offering none of them gets no SRTP. nil: GCM, then AES_CM.
    package var srtpProfiles: [SRTPProfile]?

    package init() {}

    /// How much longer the agent's delays are with `openSessions` sessions open: N / workers
    /// beyond its capacity, 1 within it (and always 1 with unlimited workers).
    package func slowdown(openSessions: Int) -> Double {
        guard let workers, openSessions > workers else { return 1 }
        return Double(openSessions) / Double(workers)
    }

    /// Rejects settings that cannot work, with a one-line reason.
    package func validate() throws(InputError) {
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
        try validateScenarioSettings()
        try faults.checkSupported(byDialect: dialect)
    }

    /// The settings as printed in reports.
    package var summary: [String: String] {
        var summary: [String: String] = [
            "dialect": dialect,
            "ready_delay_ms": String(readyDelayMs),
            "greets": String(greets),
            "greeting_delay_ms": String(greetingDelayMs),
            "vad_silence_ms": String(vadSilenceMs),
            "vad_rule": VoicingRule().description,
            "reply_latency_ms": replyLatency.description,
            "seed": String(seed),
            "reply_speed": String(replySpeed),
            "reply_chunk_ms": String(replyChunkMs),
            "barge_in": String(bargeIn),
            "barge_in_reaction_ms": String(bargeInReactionMs),
            "barge_in_min_ms": String(bargeInMinSpeechMs),
            "reply_ms": replyDurationMs.map(String.init) ?? "clip",
            "user_transcripts": String(userTranscripts),
            "tool_call": toolCall ?? "none",
            "workers": workers.map(String.init) ?? "unlimited",
        ]
        if !faults.isEmpty { summary["faults"] = faults.description }
        if let outageMs { summary["outage_ms"] = "\(outageMs.lowerBound)..\(outageMs.upperBound)" }
        if toolCall != nil {
            summary["tool_arguments"] = toolArguments
            summary["tool_latency_ms"] = String(toolLatencyMs)
            summary["tool_result_timeout_ms"] = String(toolResultTimeoutMs)
        }
        return summary
    }

    /// The ranges of the settings scripted scenarios use: reply length, barge-in reaction, tools.
    private func validateScenarioSettings() throws(InputError) {
        if let workers, !(1...1_000_000).contains(workers) {
            throw InputError("simulator workers \(workers) is out of range (1–1000000)")
        }
        if let replyDurationMs, !(Self.replyDurationRangeMs).contains(replyDurationMs) {
            throw InputError("simulator reply length \(replyDurationMs) ms is out of range (100–600000 ms)")
        }
        guard (0...10_000).contains(bargeInReactionMs) else {
            throw InputError("simulator barge-in reaction \(bargeInReactionMs) ms is out of range (0–10000 ms)")
        }
        guard (0...10_000).contains(bargeInMinSpeechMs) else {
            throw InputError("simulator barge-in minimum speech \(bargeInMinSpeechMs) ms is out of range (0–10000 ms)")
        }
        guard (0...60_000).contains(toolLatencyMs) else {
            throw InputError("simulator tool latency \(toolLatencyMs) ms is out of range (0–60000 ms)")
        }
        guard (1...600_000).contains(toolResultTimeoutMs) else {
            throw InputError("simulator tool result timeout \(toolResultTimeoutMs) ms is out of range (1–600000 ms)")
        }
        if let toolCall, toolCall.isEmpty || toolCall.contains(where: \.isWhitespace) {
            throw InputError("simulator tool name '\(toolCall)' must be one word")
        }
        guard JSONValue(parsing: toolArguments) != nil else {
            throw InputError("simulator tool arguments are not JSON: \(toolArguments)")
        }
    }

    /// The reply lengths `replyDurationMs` accepts.
    package static let replyDurationRangeMs = 100...600_000
}
