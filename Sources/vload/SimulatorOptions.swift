import AgentSimulator
import ArgumentParser
import Foundation
import VoiceLoad

/// Settings of the built-in agent simulator, shared by `serve` and by `run` without --url.
struct SimulatorOptions: ParsableArguments {
    @Option(name: .customLong("sim-ready-delay-ms"), help: "Simulator: delay from the client's start to ready (default 100).")
    var readyDelayMs: Int?

    @Option(
        name: .customLong("sim-reply-latency"),
        help: ArgumentHelp(
            "Simulator: end of user speech → first reply audio, in ms: 700, uniform:600-900 or normal:700,50 (default 700).",
            valueName: "model"
        )
    )
    var replyLatency: String?

    @Option(name: .customLong("sim-vad-silence-ms"), help: "Simulator: silence that ends the user's turn (default 500).")
    var vadSilenceMs: Int?

    @Option(name: .customLong("sim-reply-speed"), help: "Simulator: reply pace, 1 = real time, 0 = all at once (default 1).")
    var replySpeed: Double?

    @Option(name: .customLong("sim-seed"), help: "Simulator: seed of the latency draws (default 1).")
    var seed: UInt64?

    @Flag(name: .customLong("sim-no-greeting"), help: "Simulator: the agent does not speak first.")
    var noGreeting = false

    @Flag(name: .customLong("sim-no-barge-in"), help: "Simulator: ignore the caller talking over the agent (and interrupt commands).")
    var noBargeIn = false

    @Option(
        name: .customLong("sim-barge-in-reaction-ms"),
        help: ArgumentHelp(
            "Simulator: how long the agent goes on speaking after the caller talks over it (or sends an interrupt) "
                + "before it stops and sends the interruption signals (default 0).",
            valueName: "ms"
        )
    )
    var bargeInReactionMs: Int?

    @Option(
        name: .customLong("sim-barge-in-min-ms"),
        help: ArgumentHelp(
            "Simulator: how long the caller must speak over the agent before it stops; shorter speech (a backchannel) "
                + "it ignores and speaks on (default 0: any speech stops it).",
            valueName: "ms"
        )
    )
    var bargeInMinSpeechMs: Int?

    @Option(
        name: .customLong("sim-reply-ms"),
        help: ArgumentHelp(
            "Simulator: length of every reply, the reply audio looped or cut to it, 100–600000 (default: the clip once).",
            valueName: "ms"
        )
    )
    var replyDurationMs: Int?

    @Flag(name: .customLong("sim-no-user-transcripts"), help: "Simulator: do not send the caller's transcripts.")
    var noUserTranscripts = false

    @Option(
        name: .customLong("sim-tool-call"),
        help: ArgumentHelp(
            "Simulator: the agent calls this tool before every reply (not the greeting).",
            valueName: "name"
        )
    )
    var toolCall: String?

    @Option(
        name: .customLong("sim-tool-arguments"),
        help: ArgumentHelp(
            "Simulator: the tool call's arguments, JSON (default {}).",
            valueName: "json"
        )
    )
    var toolArguments: String?

    @Option(
        name: .customLong("sim-tool-latency-ms"),
        help: ArgumentHelp(
            "Simulator: from the tool's result (or, for server-side tools, its call) to the reply (default 200).",
            valueName: "ms"
        )
    )
    var toolLatencyMs: Int?

    @Option(
        name: .customLong("sim-tool-timeout-ms"),
        help: ArgumentHelp(
            "Simulator: how long to wait for a client's tool result before answering anyway (default 5000).",
            valueName: "ms"
        )
    )
    var toolResultTimeoutMs: Int?

    @Option(
        name: .customLong("sim-workers"),
        help: ArgumentHelp(
            "Simulator: capacity, K workers shared by the open sessions; with N > K open, every agent delay "
                + "(ready, greeting, reply, tool) is N/K times longer (default: unlimited).",
            valueName: "K"
        )
    )
    var workers: Int?

    @Option(
        name: .customLong("sim-faults"),
        help: ArgumentHelp(
            "Simulator: faults to inject, KIND[:ARG]=P[/turn] comma-separated (P per session, or per reply with /turn), "
                + "e.g. 'refuse:503=0.05,close:4000=0.02/turn'; or a JSON object {\"stall\": {\"session\": 0.01, \"turn\": 0.01}}. "
                + "Kinds: refuse:STATUS, slow_ready[:MS], close[:CODE], stall, malformed, oversized[:BYTES], error_event, silence, "
                + "drop_turn_end, slow_audio:RATE (reply audio at RATE x real time, 0.01-1), audio_gap:MS (one pause mid-reply) "
                + "(docs/running.md, Fault injection).",
            valueName: "list"
        )
    )
    var faults: String?

    @Option(
        name: .customLong("sim-outage"),
        help: ArgumentHelp(
            "Simulator: refuse every upgrade or WebRTC offer (HTTP 503) from FROM to TO after it starts, e.g. '20s..30s': an endpoint "
                + "that goes away and comes back; sessions already open go on.",
            valueName: "from..to"
        )
    )
    var outage: String?

    @Option(name: .customLong("sim-reply-wav"), help: "Simulator: WAV file of the agent's reply.")
    var replyWAV: String?

    @Option(name: .customLong("sim-greeting-wav"), help: "Simulator: WAV file of the agent's greeting.")
    var greetingWAV: String?

    @Option(
        name: .customLong("sim-srtp-profiles"),
        help: ArgumentHelp(
            "Simulator, WebRTC: the SRTP profiles its answerer accepts in DTLS, most preferred first, comma-separated: "
                + "SRTP_AEAD_AES_128_GCM, SRTP_AES128_CM_HMAC_SHA1_80 (default: both, GCM first). It is the DTLS server, "
                + "so its order picks the profile; a caller offering none of them fails in DTLS.",
            valueName: "list"
        )
    )
    var srtpProfiles: String?

    /// Whether any simulator option was given.
    var isSet: Bool {
        readyDelayMs != nil || replyLatency != nil || vadSilenceMs != nil || replySpeed != nil || seed != nil
            || noGreeting || noBargeIn || replyWAV != nil || greetingWAV != nil || bargeInReactionMs != nil
            || bargeInMinSpeechMs != nil
            || replyDurationMs != nil || noUserTranscripts || toolCall != nil || toolArguments != nil
            || toolLatencyMs != nil || toolResultTimeoutMs != nil || workers != nil || faults != nil || outage != nil
            || srtpProfiles != nil
    }

    /// These options, with `base`'s wherever these are unset.
    func merged(over base: SimulatorOptions) -> SimulatorOptions {
        var merged = self
        merged.readyDelayMs = readyDelayMs ?? base.readyDelayMs
        merged.replyLatency = replyLatency ?? base.replyLatency
        merged.vadSilenceMs = vadSilenceMs ?? base.vadSilenceMs
        merged.replySpeed = replySpeed ?? base.replySpeed
        merged.seed = seed ?? base.seed
        merged.noGreeting = noGreeting || base.noGreeting
        merged.noBargeIn = noBargeIn || base.noBargeIn
        merged.bargeInReactionMs = bargeInReactionMs ?? base.bargeInReactionMs
        merged.bargeInMinSpeechMs = bargeInMinSpeechMs ?? base.bargeInMinSpeechMs
        merged.replyDurationMs = replyDurationMs ?? base.replyDurationMs
        merged.noUserTranscripts = noUserTranscripts || base.noUserTranscripts
        merged.toolCall = toolCall ?? base.toolCall
        merged.toolArguments = toolArguments ?? base.toolArguments
        merged.toolLatencyMs = toolLatencyMs ?? base.toolLatencyMs
        merged.toolResultTimeoutMs = toolResultTimeoutMs ?? base.toolResultTimeoutMs
        merged.workers = workers ?? base.workers
        merged.faults = faults ?? base.faults
        merged.outage = outage ?? base.outage
        merged.replyWAV = replyWAV ?? base.replyWAV
        merged.greetingWAV = greetingWAV ?? base.greetingWAV
        merged.srtpProfiles = srtpProfiles ?? base.srtpProfiles
        return merged
    }

    /// `--sim-faults` parsed; errors name the flag.
    static func faultPlan(_ text: String) throws(InputError) -> FaultPlan {
        do {
            return try FaultPlan(parsing: text)
        } catch {
            throw InputError("--sim-faults: \(error.message)")
        }
    }

    /// `--sim-outage FROM..TO` in ms from the simulator's start; errors name the flag.
    static func outageWindow(_ text: String) throws(InputError) -> Range<Int> {
        let (from, to) = try DurationText.millisecondRange(text, option: "--sim-outage", example: "20s..30s")
        guard to > from else { throw InputError("invalid --sim-outage '\(text)': TO must be after FROM") }
        return from..<to
    }

    func configuration(dialect: String) throws(InputError) -> SimulatorConfiguration {
        var configuration = SimulatorConfiguration()
        configuration.dialect = dialect
        if let readyDelayMs { configuration.readyDelayMs = readyDelayMs }
        if let replyLatency { configuration.replyLatency = try LatencyModel(parsing: replyLatency) }
        if let vadSilenceMs { configuration.vadSilenceMs = vadSilenceMs }
        if let replySpeed { configuration.replySpeed = replySpeed }
        if let seed { configuration.seed = seed }
        configuration.greets = !noGreeting
        configuration.bargeIn = !noBargeIn
        if let bargeInReactionMs { configuration.bargeInReactionMs = bargeInReactionMs }
        if let bargeInMinSpeechMs { configuration.bargeInMinSpeechMs = bargeInMinSpeechMs }
        configuration.replyDurationMs = replyDurationMs
        configuration.userTranscripts = !noUserTranscripts
        guard toolCall != nil || (toolArguments == nil && toolLatencyMs == nil && toolResultTimeoutMs == nil) else {
            throw InputError("--sim-tool-arguments, --sim-tool-latency-ms and --sim-tool-timeout-ms need --sim-tool-call")
        }
        configuration.toolCall = toolCall
        if let toolArguments { configuration.toolArguments = toolArguments }
        if let toolLatencyMs { configuration.toolLatencyMs = toolLatencyMs }
        if let toolResultTimeoutMs { configuration.toolResultTimeoutMs = toolResultTimeoutMs }
        configuration.workers = workers
        if let faults { configuration.faults = try Self.faultPlan(faults) }
        if let outage { configuration.outageMs = try Self.outageWindow(outage) }
        configuration.replyWAV = replyWAV
        configuration.greetingWAV = greetingWAV
        configuration.srtpProfiles = try srtpProfiles.map { text throws(InputError) in
            try SRTPProfileList.parse(text, option: "--sim-srtp-profiles")
        }
        try configuration.validate()
        return configuration
    }
}
