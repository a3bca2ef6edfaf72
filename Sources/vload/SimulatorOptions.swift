import AgentSimulator
import ArgumentParser
import VoiceLoad

/// Settings of the built-in agent simulator, shared by `serve` and by `run` without --url.
struct SimulatorOptions: ParsableArguments {
    @Option(name: .customLong("sim-ready-delay-ms"), help: "Simulator: delay from the client's start to ready (default 100).")
    var readyDelayMs: Int?

    @Option(name: .customLong("sim-reply-latency"), help: ArgumentHelp(
        "Simulator: end of user speech → first reply audio, in ms: 700, uniform:600-900 or normal:700,50 (default 700).",
        valueName: "model"))
    var replyLatency: String?

    @Option(name: .customLong("sim-vad-silence-ms"), help: "Simulator: silence that ends the user's turn (default 500).")
    var vadSilenceMs: Int?

    @Option(name: .customLong("sim-reply-speed"), help: "Simulator: reply pace, 1 = real time, 0 = all at once (default 1).")
    var replySpeed: Double?

    @Option(name: .customLong("sim-seed"), help: "Simulator: seed of the latency draws (default 1).")
    var seed: UInt64?

    @Flag(name: .customLong("sim-no-greeting"), help: "Simulator: the agent does not speak first.")
    var noGreeting = false

    @Flag(name: .customLong("sim-no-barge-in"), help: "Simulator: ignore the caller talking over the agent.")
    var noBargeIn = false

    @Option(name: .customLong("sim-reply-wav"), help: "Simulator: WAV file of the agent's reply.")
    var replyWAV: String?

    @Option(name: .customLong("sim-greeting-wav"), help: "Simulator: WAV file of the agent's greeting.")
    var greetingWAV: String?

    /// Whether any simulator option was given.
    var isSet: Bool {
        readyDelayMs != nil || replyLatency != nil || vadSilenceMs != nil || replySpeed != nil || seed != nil
            || noGreeting || noBargeIn || replyWAV != nil || greetingWAV != nil
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
        merged.replyWAV = replyWAV ?? base.replyWAV
        merged.greetingWAV = greetingWAV ?? base.greetingWAV
        return merged
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
        configuration.replyWAV = replyWAV
        configuration.greetingWAV = greetingWAV
        try configuration.validate()
        return configuration
    }
}
