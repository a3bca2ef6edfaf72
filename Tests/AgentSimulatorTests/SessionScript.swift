import VoiceLoad
import WSCore

@testable import AgentSimulator

/// Drives a `SimulatorSession` with synthetic time: instants are milliseconds after an
/// arbitrary origin; user audio is 40 ms frames of PCM16 16 kHz, a loud square wave or silence.
struct SessionScript {
    typealias Action = SimulatorSession.Action

    var agent: SimulatorSession
    /// How much user audio has been fed.
    private(set) var streamMs = 0

    /// A session that does not greet, sends no user transcripts, ends a turn after 200 ms of
    /// silence and answers 700 ms after the end of speech with a 50-chunk (2 s) reply;
    /// `configure` changes that. `replyFaults` draws the per-turn faults, `speaks` false makes
    /// it speech-to-text, `streamsSilenceWhileIdle` streams silence between turns once media
    /// flows, as a Pipecat WebRTC bot.
    init(
        awaitsToolResults: Bool = false,
        speaks: Bool = true,
        replyFaults: ReplyFaultDrawer? = nil,
        streamsSilenceWhileIdle: Bool = false,
        _ configure: (inout SimulatorConfiguration) -> Void = { _ in }
    ) {
        var configuration = SimulatorConfiguration()
        configuration.readyDelayMs = 100
        configuration.greets = false
        configuration.greetingDelayMs = 200
        configuration.vadSilenceMs = 200
        configuration.replyLatency = .fixed(ms: 700)
        configuration.replyChunkMs = 40
        configuration.userTranscripts = false
        configure(&configuration)
        agent = SimulatorSession(
            configuration: configuration,
            sessionStart: .onClientStart,
            speaks: speaks,
            awaitsToolResults: awaitsToolResults,
            inputFormat: .pcm16(16_000),
            chunkCounts: [.greeting: 10, .reply: 50, .silence: 50],
            sessionNumber: 1,
            replyFaults: replyFaults,
            streamsSilenceWhileIdle: streamsSilenceWhileIdle
        )
    }

    static func at(_ ms: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: 10_000_000_000 + UInt64(ms) * 1_000_000)
    }

    /// The session started at 0 and ready at 100 ms.
    mutating func start() {
        _ = agent.receive(.start(parameters: [:]), at: Self.at(0))
        _ = agent.timerFired(.ready, at: Self.at(100))
    }

    mutating func receive(_ intent: ClientIntent, at ms: Int64) -> [Action] {
        agent.receive(intent, at: Self.at(ms))
    }

    mutating func fire(_ timer: SimulatorSession.Timer, at ms: Int64) -> [Action] {
        agent.timerFired(timer, at: Self.at(ms))
    }

    /// Feeds `count` frames arriving at `from`, `from + 40`, …; the non-empty answers, with
    /// the arrival time of the frame that caused each.
    mutating func feed(loud: Bool, from: Int64, count: Int) -> [(at: Int64, actions: [Action])] {
        var answers: [(at: Int64, actions: [Action])] = []
        for index in 0..<count {
            let arrival = from + 40 * Int64(index)
            let actions = agent.receive(.audio(Self.frame(loud: loud)), at: Self.at(arrival))
            streamMs += 40
            if !actions.isEmpty { answers.append((arrival, actions)) }
        }
        return answers
    }

    /// A session that has spoken one utterance and is speaking the reply to it (from 2100).
    static func speakingReply(_ configure: (inout SimulatorConfiguration) -> Void) -> SessionScript {
        var script = SessionScript(configure)
        script.start()
        _ = script.utterance()
        _ = script.fire(.reply, at: 2_100)
        return script
    }

    /// One utterance: 400 ms of speech in frames arriving 1040…1400 (heard in the frame at
    /// 1080), then 200 ms of silence that ends it with the frame at 1600. The reply is due
    /// at 1400 + 700 = 2100.
    mutating func utterance() -> [Action] {
        (feed(loud: true, from: 1_040, count: 10) + feed(loud: false, from: 1_440, count: 5)).flatMap(\.actions)
    }

    static func frame(loud: Bool) -> [UInt8] {
        (0..<640).flatMap { index -> [UInt8] in
            let sample: Int16 = loud ? (index % 20 < 10 ? 8_000 : -8_000) : 0
            let bits = UInt16(bitPattern: sample)
            return [UInt8(bits & 0xFF), UInt8(bits >> 8)]
        }
    }
}
