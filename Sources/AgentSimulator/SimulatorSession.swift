import VoiceLoad
import WSCore

/// The behaviour of the simulated agent in one session, as a value-type state machine:
/// intents and timer expiries in, actions out. It reads no clock and touches no socket;
/// `SimulatorConnection` drives it.
///
/// The parts live in extensions: speech and transcripts (`+Speech`), replies and tool calls
/// (`+Reply`), barge-in (`+BargeIn`), audio pacing (`+Streaming`), the silence a WebRTC
/// agent streams between its turns (`+IdleSilence`) and injected faults (`+Faults`).
struct SimulatorSession: Sendable {
    enum Clip: Sendable, Hashable {
        case greeting
        case reply
        /// The reply's length of digital silence (the `silence` fault).
        case silence
    }

    enum Timer: Sendable, Hashable {
        case ready
        case greeting
        case reply
        case nextChunk
        case closeAfterEnd
        /// Speech-to-text only: the next interim result while the user speaks.
        case interimResult
        /// The agent reacts to the user talking over it, `bargeInReactionMs` after it heard them.
        case bargeIn
        /// The user's partial transcript, a little after their speech started.
        case userTranscript
        /// The agent stops waiting for a client-side tool's result.
        case toolResultTimeout
        /// The tool has run: the reply starts.
        case toolDone
        /// A reply that waited for the agent's previous turn starts, after a pause.
        case queuedReply
    }

    enum Action: Sendable, Hashable {
        case send(AgentOutput)
        /// Send chunk `index` of a pre-encoded clip.
        case sendChunk(Clip, index: Int)
        case schedule(Timer, at: MonotonicInstant)
        case cancel(Timer)
        case close(code: Int)
        /// Send a frame no dialect would (the `malformed` and `oversized` faults).
        case sendInvalid(FaultFrames.Kind)
        /// Send one frame of silence: the agent is not speaking, and its track streams on
        /// (`streamsSilenceWhileIdle`, `+IdleSilence`).
        case sendIdleSilence
    }

    enum Phase: Sendable, Hashable {
        case awaitingStart
        case starting
        case live
        case ended
        /// The `stall` fault struck: nothing more is sent, and input is ignored.
        case stalled
    }

    struct Stream: Sendable, Hashable {
        var clip: Clip
        var startedAt: MonotonicInstant
        var nextChunk: Int
        var turnKey: String
        /// Whether the turn's end is announced (`agentAudioDone`, `turnComplete`); false under
        /// the `drop_turn_end` fault.
        var announcesEnd = true
        var pace: Pace
    }

    /// How a turn's audio is paced: `speed` × real time (0: all at once), and a pause of
    /// `gapUs` before chunk `gapBeforeChunk` (the `audio_gap` fault; none when `gapUs` is 0).
    struct Pace: Sendable, Hashable {
        var speed: Double
        var gapBeforeChunk = 0
        var gapUs: Int64 = 0
    }

    let configuration: SimulatorConfiguration
    let sessionStart: ServerSessionStart
    /// False for speech-to-text dialects: the answer to an utterance is its transcript.
    let speaks: Bool
    /// Whether the client runs the agent's tools and answers each call (OpenAI, Deepgram agent).
    let awaitsToolResults: Bool
    let chunkCounts: [Clip: Int]
    /// Whether the agent's audio track streams silence whenever it is not speaking, as a
    /// Pipecat bot's WebRTC output track does (`+IdleSilence`).
    let streamsSilenceWhileIdle: Bool
    /// Whether media flows: the WebRTC transport connected (`mediaStarted`), for an agent that
    /// streams silence while idle.
    var mediaFlowing = false
    /// When the next frame of idle silence is due, while media flows and no turn is spoken.
    var idleSilenceDueAt: MonotonicInstant?
    let sessionID: String
    var phase = Phase.awaitingStart
    /// The agent's turn being streamed.
    var stream: Stream?
    /// The answer to the user's last utterance, on its way.
    var reply: PendingReply?
    /// A barge-in the agent has heard (or been told of) and not yet reacted to.
    var pendingBargeIn: PendingBargeIn?
    /// Whether the user's partial transcript is scheduled.
    var userTranscriptScheduled = false
    /// Where in the user's stream the current utterance started and ended (speech-to-text).
    var utteranceStartMs = 0
    var utteranceEndMs = 0
    static let interimIntervalMs: Int64 = 500
    /// From the detection of the user's speech to their partial transcript.
    static let userPartialDelayMs: Int64 = 250
    static let transcriptText = "this is a simulated transcript"
    static let partialTranscriptText = "this is a"
    var turnsStarted = 0
    var toolCallsMade = 0
    var statistics = SimulatorStatistics()
    /// How late each reply started, in µs: from when it was due (the end of the user's speech
    /// plus the drawn latency) to the timer's firing. The loop's lateness, seen from the agent.
    var replyLatenessUs: [Int64] = []
    /// How much slower the agent is at the moment: open sessions / workers beyond its capacity,
    /// else 1 (`SimulatorConfiguration.slowdown`). An input: the driver sets it before every
    /// intent and timer; each agent-side delay is stretched by it when the delay starts.
    var slowdown = 1.0
    /// Whether the dialect withdraws an end of turn it announced early when the user speaks
    /// again before its final end (`ServerCodec.withdrawsEndOfTurnOnResume`): an input, set by
    /// the driver before every intent, as a `Configure` may change it mid-stream.
    var endOfTurnWithdrawable = false
    var detector: StreamingSpeechDetector
    /// Where in the user's stream speech over the agent started that has not yet lasted
    /// `bargeInMinSpeechMs` (nil: none).
    var speechOverAgentAudioMs: Int?
    /// Manual turns (OpenAI `turn_detection: null` in the client's session): the agent's VAD
    /// only marks where the user's speech ended; the client's commit asks for the reply.
    var manualTurns = false
    /// Manual turns: the end of the user's latest speech, not yet committed.
    var uncommittedSpeechEndedAt: MonotonicInstant?
    /// Manual turns: the client committed the speech under way before the VAD ended it.
    var speechUnderWayCommitted = false
    var random: SeededGenerator
    /// The session's fault (`configuration.faults`, drawn from its number), while it has not struck.
    var sessionFault: InjectedFault?
    /// Draws the per-turn fault of each reply; shared by the simulator's sessions. nil: none.
    let replyFaults: ReplyFaultDrawer?

    init(
        configuration: SimulatorConfiguration,
        sessionStart: ServerSessionStart,
        speaks: Bool = true,
        awaitsToolResults: Bool = false,
        inputFormat: AudioFormat,
        chunkCounts: [Clip: Int],
        sessionNumber: UInt64,
        replyFaults: ReplyFaultDrawer? = nil,
        noise: NoiseWindows? = nil,
        streamsSilenceWhileIdle: Bool = false
    ) {
        self.configuration = configuration
        self.sessionStart = sessionStart
        self.speaks = speaks
        self.awaitsToolResults = awaitsToolResults
        self.chunkCounts = chunkCounts
        self.streamsSilenceWhileIdle = streamsSilenceWhileIdle
        self.sessionID = "sim-\(sessionNumber)"
        self.detector = StreamingSpeechDetector(
            format: inputFormat,
            minSpeechMs: configuration.vadMinSpeechMs,
            silenceMs: configuration.vadSilenceMs,
            noise: noise
        )
        self.random = SeededGenerator(seed: configuration.seed &+ sessionNumber &* 0x9E37_79B9)
        self.sessionFault = configuration.faults.sessionFault(sessionNumber: sessionNumber, seed: configuration.seed)
        self.replyFaults = replyFaults
    }

    /// `ms` of agent work at the current `slowdown`, in microseconds.
    func stretchedUs(ms: Int) -> Int64 {
        stretchedUs(Int64(ms) * 1_000)
    }

    /// `us` of agent work at the current `slowdown`.
    func stretchedUs(_ us: Int64) -> Int64 {
        slowdown > 1 ? Int64((Double(us) * slowdown).rounded()) : us
    }

    /// Whether an answer to the user is on its way (not yet speaking).
    var replyPending: Bool { reply != nil }

    /// The socket opened. Dialects that start on open get ready after the ready delay.
    mutating func opened(at now: MonotonicInstant) -> [Action] {
        var actions: [Action] = [.send(.connectionOpened(sessionID: sessionID))]
        if sessionStart == .onOpen {
            phase = .starting
            actions.append(scheduleReady(at: now))
        }
        return actions
    }

    mutating func receive(_ intent: ClientIntent, at now: MonotonicInstant) -> [Action] {
        guard phase != .stalled else { return [] }
        switch intent {
        case .start(let parameters):
            guard phase == .awaitingStart else { return [] }
            phase = .starting
            manualTurns = OpenAIRealtimeSession.hasManualTurns(parameters)
            return [
                .send(.sessionStarted(sessionID: sessionID, conversationID: "conv-\(sessionID)")),
                scheduleReady(at: now),
            ]
        case .audio(let bytes):
            guard phase == .live else { return [] }
            var actions: [Action] = []
            for event in detector.process(bytes, arrivedAt: now) {
                actions += speech(event, now: now)
            }
            return actions + bargeInOnceLongEnough(at: now)
        case .interrupt:
            guard phase == .live else { return [] }
            return requestInterruption(userSpeechAudioMs: nil, at: now)
        case .toolResult(let callID, _, _):
            guard phase == .live else { return [] }
            return receiveToolResult(callID: callID, at: now)
        case .stop:
            guard phase != .ended else { return [] }
            phase = .ended
            reply = nil
            pendingBargeIn = nil
            var actions = stopSpeaking(at: now)
            actions += [
                .cancel(.ready), .cancel(.greeting), .send(.ended(transcript: [])),
                .schedule(.closeAfterEnd, at: now.advanced(byMilliseconds: 2_000)),
            ]
            return actions
        case .commit:
            guard phase == .live else { return [] }
            if !speaks { return [.send(.speechResult(finalizedTranscript()))] }
            return manualTurns ? replyToCommit(at: now) : []
        case .keepAlive:
            statistics.keepAlives += 1
            return []
        case .dtmf(let digit):
            statistics.dtmfDigits += digit
            return []
        case .text, .markPlayed, .playbackTruncated:
            return []
        case .configure:
            // Settings that change the wire (Flux's eager end of turn, AssemblyAI's formatted
            // turns) are the server codec's; none changes when the simulated agent answers.
            return []
        }
    }

    mutating func timerFired(_ timer: Timer, at now: MonotonicInstant) -> [Action] {
        guard phase != .stalled else { return [] }
        switch timer {
        case .ready:
            guard phase == .starting else { return [] }
            phase = .live
            var actions: [Action] = [.send(.ready)]
            if configuration.greets, speaks {
                actions.append(.schedule(.greeting, at: now.advanced(byMicroseconds: stretchedUs(ms: configuration.greetingDelayMs))))
            }
            return actions
        case .greeting:
            guard phase == .live, stream == nil else { return [] }
            return startSpeaking(.greeting, at: now, latencyMs: 0)
        case .reply:
            return replyDue(at: now)
        case .interimResult:
            return interimResult(at: now)
        case .userTranscript:
            return userPartialTranscript()
        case .bargeIn:
            guard phase == .live else { return [] }
            return deliverBargeIn(at: now)
        case .toolResultTimeout:
            return toolResultTimedOut(at: now)
        case .toolDone:
            return toolFinished(at: now)
        case .queuedReply:
            guard phase == .live, reply?.stage == .queued else { return [] }
            return beginReply(at: now)
        case .nextChunk:
            // The one pacing timer: the turn's next chunk, or the next frame of idle silence.
            return stream == nil ? idleSilenceDue(at: now) : sendDueChunks(at: now)
        case .closeAfterEnd:
            return [.close(code: 1000)]
        }
    }
}
