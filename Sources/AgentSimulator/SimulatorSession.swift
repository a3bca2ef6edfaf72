import VoiceLoad

/// The behaviour of the simulated agent in one session, as a value-type state machine:
/// intents and timer expiries in, actions out. It reads no clock and touches no socket;
/// `SimulatorConnection` drives it.
struct SimulatorSession: Sendable {
    enum Clip: Sendable, Hashable {
        case greeting
        case reply
    }

    enum Timer: Sendable, Hashable {
        case ready
        case greeting
        case reply
        case nextChunk
        case closeAfterEnd
        /// Speech-to-text only: the next interim result while the user speaks.
        case interimResult
    }

    enum Action: Sendable, Hashable {
        case send(AgentOutput)
        /// Send chunk `index` of a pre-encoded clip.
        case sendChunk(Clip, index: Int)
        case schedule(Timer, at: MonotonicInstant)
        case cancel(Timer)
        case close(code: Int)
    }

    enum Phase: Sendable, Hashable {
        case awaitingStart
        case starting
        case live
        case ended
    }

    struct Stream: Sendable, Hashable {
        var clip: Clip
        var startedAt: MonotonicInstant
        var nextChunk: Int
        var turnKey: String
    }

    let configuration: SimulatorConfiguration
    let sessionStart: ServerSessionStart
    /// False for speech-to-text dialects: the answer to an utterance is its transcript.
    let speaks: Bool
    let chunkCounts: [Clip: Int]
    let sessionID: String
    private(set) var phase = Phase.awaitingStart
    private(set) var stream: Stream?
    private(set) var replyPending = false
    private var pendingLatencyMs = 0
    /// Where in the user's stream the current utterance started and ended (speech-to-text).
    private var utteranceStartMs = 0
    private var utteranceEndMs = 0
    static let interimIntervalMs: Int64 = 500
    static let transcriptText = "this is a simulated transcript"
    private var turnsStarted = 0
    private(set) var statistics = SimulatorStatistics()
    private var detector: StreamingSpeechDetector
    private var random: SeededGenerator

    init(
        configuration: SimulatorConfiguration, sessionStart: ServerSessionStart, speaks: Bool = true,
        inputFormat: AudioFormat, chunkCounts: [Clip: Int], sessionNumber: UInt64
    ) {
        self.configuration = configuration
        self.sessionStart = sessionStart
        self.speaks = speaks
        self.chunkCounts = chunkCounts
        self.sessionID = "sim-\(sessionNumber)"
        self.detector = StreamingSpeechDetector(
            format: inputFormat, thresholdDbfs: configuration.vadThresholdDbfs,
            minSpeechMs: configuration.vadMinSpeechMs, silenceMs: configuration.vadSilenceMs
        )
        self.random = SeededGenerator(seed: configuration.seed &+ sessionNumber &* 0x9E37_79B9)
    }

    /// The socket opened. Dialects that start on open get ready after the ready delay.
    mutating func opened(at now: MonotonicInstant) -> [Action] {
        var actions: [Action] = [.send(.connectionOpened(sessionID: sessionID))]
        if sessionStart == .onOpen {
            phase = .starting
            actions.append(.schedule(.ready, at: now.advanced(byMilliseconds: Int64(configuration.readyDelayMs))))
        }
        return actions
    }

    mutating func receive(_ intent: ClientIntent, at now: MonotonicInstant) -> [Action] {
        switch intent {
        case .start:
            guard phase == .awaitingStart else { return [] }
            phase = .starting
            return [
                .send(.sessionStarted(sessionID: sessionID, conversationID: "conv-\(sessionID)")),
                .schedule(.ready, at: now.advanced(byMilliseconds: Int64(configuration.readyDelayMs))),
            ]
        case .audio(let bytes):
            guard phase == .live else { return [] }
            var actions: [Action] = []
            for event in detector.process(bytes, arrivedAt: now) {
                actions += speech(event, now: now)
            }
            return actions
        case .interrupt:
            guard phase == .live else { return [] }
            return interrupt()
        case .stop:
            guard phase != .ended else { return [] }
            phase = .ended
            var actions = stopSpeaking()
            actions += [
                .cancel(.ready), .cancel(.greeting), .send(.ended(transcript: [])),
                .schedule(.closeAfterEnd, at: now.advanced(byMilliseconds: 2_000)),
            ]
            return actions
        case .text, .commit, .keepAlive, .toolResult, .markPlayed:
            return []
        }
    }

    mutating func timerFired(_ timer: Timer, at now: MonotonicInstant) -> [Action] {
        switch timer {
        case .ready:
            guard phase == .starting else { return [] }
            phase = .live
            var actions: [Action] = [.send(.ready)]
            if configuration.greets, speaks {
                actions.append(.schedule(.greeting, at: now.advanced(byMilliseconds: Int64(configuration.greetingDelayMs))))
            }
            return actions
        case .greeting:
            guard phase == .live, stream == nil else { return [] }
            return startSpeaking(.greeting, at: now, latencyMs: 0)
        case .reply:
            guard phase == .live, replyPending else { return [] }
            replyPending = false
            statistics.replies += 1
            guard speaks else { return finalTranscript() }
            return startSpeaking(.reply, at: now, latencyMs: pendingLatencyMs)
        case .interimResult:
            guard phase == .live, detector.isInSpeech else { return [] }
            return [
                .send(.speechResult(transcript(endMs: detector.audioPositionMs, isFinal: false))),
                .schedule(.interimResult, at: now.advanced(byMilliseconds: Self.interimIntervalMs)),
            ]
        case .nextChunk:
            return sendDueChunks(at: now)
        case .closeAfterEnd:
            return [.close(code: 1000)]
        }
    }

    private mutating func speech(_ event: StreamingSpeechDetector.Event, now: MonotonicInstant) -> [Action] {
        switch event {
        case .speechStarted(_, let audioMs):
            statistics.userTurns += 1
            let heard: [Action] = [.send(.userSpeechStarted(audioMs: audioMs))]
            if !speaks {
                utteranceStartMs = audioMs
                return heard + [.schedule(.interimResult, at: now.advanced(byMilliseconds: Self.interimIntervalMs))]
            }
            // The user talks while the agent speaks (or is about to): barge-in.
            guard configuration.bargeIn, stream != nil || replyPending else { return heard }
            return heard + interrupt()
        case .speechEnded(let endedAt, let audioMs):
            let latencyUs = configuration.replyLatency.sampleUs(using: &random)
            replyPending = true
            pendingLatencyMs = Int(latencyUs / 1_000)
            utteranceEndMs = audioMs
            return (speaks ? [] : [.cancel(.interimResult)]) + [
                .send(.userSpeechStopped(audioMs: audioMs)),
                .schedule(.reply, at: max(now, endedAt.advanced(byMicroseconds: latencyUs))),
            ]
        }
    }

    /// Speech-to-text: a result covering the utterance from its start to `endMs`.
    private func transcript(endMs: Int, isFinal: Bool) -> SpeechResult {
        SpeechResult(
            text: Self.transcriptText, isFinal: isFinal, speechFinal: isFinal,
            startS: Double(utteranceStartMs) / 1_000, durationS: Double(max(0, endMs - utteranceStartMs)) / 1_000
        )
    }

    /// Speech-to-text: the final, endpointed result of the utterance and its end.
    private func finalTranscript() -> [Action] {
        [
            .send(.speechResult(transcript(endMs: utteranceEndMs, isFinal: true))),
            .send(.utteranceEnd(lastWordEndS: Double(utteranceEndMs) / 1_000)),
        ]
    }

    private mutating func interrupt() -> [Action] {
        guard stream != nil else {
            // Not speaking yet: the user simply went on talking; the answer waits.
            guard replyPending else { return [] }
            replyPending = false
            return [.cancel(.reply)]
        }
        statistics.interruptions += 1
        replyPending = false
        let turnKey = stream?.turnKey ?? ""
        return stopSpeaking() + [.cancel(.reply), .send(.interrupted), .send(.responseCancelled(turnKey: turnKey))]
    }

    private mutating func startSpeaking(_ clip: Clip, at now: MonotonicInstant, latencyMs: Int) -> [Action] {
        turnsStarted += 1
        let turnKey = "resp_\(sessionID)_\(turnsStarted)"
        stream = Stream(clip: clip, startedAt: now, nextChunk: 0, turnKey: turnKey)
        return [.send(.agentTurnStarted(turnKey: turnKey, latencyMs: latencyMs))] + sendDueChunks(at: now)
    }

    private mutating func stopSpeaking() -> [Action] {
        guard stream != nil else { return [] }
        stream = nil
        return [.cancel(.nextChunk)]
    }

    /// Chunk i of a clip is due at `startedAt + i·chunk/speed`; speed 0 sends the whole clip at once.
    private mutating func sendDueChunks(at now: MonotonicInstant) -> [Action] {
        guard var stream, let count = chunkCounts[stream.clip] else { return [] }
        var actions: [Action] = []
        while stream.nextChunk < count, dueTime(of: stream.nextChunk, in: stream) <= now {
            actions.append(.sendChunk(stream.clip, index: stream.nextChunk))
            stream.nextChunk += 1
        }
        if stream.nextChunk >= count {
            self.stream = nil
            actions += [.send(.agentAudioDone(turnKey: stream.turnKey)), .send(.turnComplete(turnKey: stream.turnKey))]
        } else {
            self.stream = stream
            actions.append(.schedule(.nextChunk, at: dueTime(of: stream.nextChunk, in: stream)))
        }
        return actions
    }

    private func dueTime(of chunk: Int, in stream: Stream) -> MonotonicInstant {
        guard configuration.replySpeed > 0 else { return stream.startedAt }
        let offsetUs = Double(chunk * configuration.replyChunkMs * 1_000) / configuration.replySpeed
        return stream.startedAt.advanced(byMicroseconds: Int64(offsetUs))
    }
}

/// What the simulator did, summed over sessions.
public struct SimulatorStatistics: Sendable, Hashable {
    public var sessions = 0
    public var userTurns = 0
    public var replies = 0
    public var interruptions = 0

    public init() {}

    mutating func add(_ other: SimulatorStatistics) {
        sessions += other.sessions
        userTurns += other.userTurns
        replies += other.replies
        interruptions += other.interruptions
    }
}
