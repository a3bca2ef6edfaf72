import WSCore

@testable import VoiceLoad

/// Drives a `CallAttempt` with synthetic time: instants are milliseconds after an arbitrary
/// origin; no socket, no clock, no sleep. Agent audio is 40 ms chunks, voiced unless told.
struct AttemptScript {
    typealias Action = CallAttempt.Action

    /// The attempt's codec: a text frame decodes to a malformed event whose reason is its
    /// text (so the frame and its arrival instant show in the action), an intent encodes to
    /// one text frame that names it (`Action.send(_:)`), and nothing goes out on open.
    struct Codec: ClientCodec {
        func framesOnOpen() -> [WireFrame] { [] }
        func audioFrame(_ audio: PreparedAudio) -> EncodedFrame { audio.sharedFrame ?? EncodedFrame(.binary([])) }
        func frames(for intent: ClientIntent) -> [WireFrame] { [.text("\(intent)")] }
        func receive(_ frame: WireFrame) -> DecodedFrame {
            guard case .text(let text) = frame else { return [] }
            return [.malformed(reason: text)]
        }
    }

    var attempt: CallAttempt

    /// An attempt on a dialect that signals ready by event and whose turns end by event
    /// (`.audioGap`: by a quiet gap), with a 500 ms quiet gap and no jitter buffer; with the
    /// dialect's keep-alive and the scenario's reconnect policy, or the call's attempts so far,
    /// when given.
    init(
        turnEnd: TurnEndSignal = .event,
        readySignal: ReadySignal = .event,
        quietMs: Int64 = 500,
        keepAlive: KeepAlivePolicy? = nil,
        reconnect: ReconnectPolicy? = nil,
        attempts: SessionAttempts? = nil
    ) {
        var configuration = TurnTracker.Configuration()
        configuration.turnEndSignal = turnEnd
        configuration.quietMs = quietMs
        attempt = CallAttempt(
            codec: Codec(),
            tracker: configuration,
            client: 0,
            iteration: 0,
            readySignal: readySignal,
            turnEndSignal: turnEnd,
            keepAlive: keepAlive,
            attempts: attempts ?? SessionAttempts(policy: reconnect)
        )
    }

    static func at(_ ms: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: 10_000_000_000 + UInt64(ms) * 1_000_000)
    }

    static func chunk(durationMs: Int64 = 40, rms: Float = 0.2, turnKey: String? = nil) -> AgentAudioChunk {
        AgentAudioChunk(byteCount: Int(durationMs) * 32, durationUs: durationMs * 1_000, rmsLevel: rms, turnKey: turnKey)
    }

    /// The attempt got ready at `ms`.
    mutating func ready(at ms: Int64) {
        _ = attempt.markReady(at: Self.at(ms))
    }

    /// A frame whose events (and codec replies) arrive at `ms`, handled then.
    mutating func receive(_ events: [NormalizedEvent], replies: [CodecReply] = [], at ms: Int64) -> [Action] {
        attempt.receive(.text("frame"), decoded: DecodedFrame(events: events, replies: replies), at: Self.at(ms), now: Self.at(ms))
    }

    mutating func receive(_ event: NormalizedEvent, at ms: Int64) -> [Action] {
        receive([event], at: ms)
    }

    /// A raw text frame off the socket at `ms`, handled at `handledMs` (`ms` if not given).
    mutating func frame(_ text: String, at ms: Int64, handledMs: Int64? = nil) -> [Action] {
        attempt.frameArrived(.text(text), at: Self.at(ms), now: Self.at(handledMs ?? ms))
    }

    /// What the codec makes of a frame `text` that arrived at `ms`: a malformed frame.
    static func decoded(_ text: String, at ms: Int64) -> Action {
        .recordError(.malformedFrame, .frame(.text(text), reason: text), at: at(ms))
    }

    /// A `say` step's utterance whose speech lies at `speechStartMs…speechEndMs` of the stream.
    mutating func utterance(_ label: String = "ask", speechStartMs: Int64, speechEndMs: Int64) {
        _ = attempt.utteranceStarted(
            label: label,
            micOpenAt: Self.at(0),
            speechStartUs: speechStartMs * 1_000,
            speechEndUs: speechEndMs * 1_000
        )
    }

    /// A step begins waiting at `ms`: its timers' actions when it waits, else the `endStep`
    /// that ends it at once.
    mutating func wait(for condition: WaitCondition, step: String = "wait", timeoutMs: Int = 10_000, at ms: Int64) -> [Action] {
        switch attempt.beginWait(for: condition, step: step, timeoutMs: timeoutMs, at: Self.at(ms)) {
        case .ended(let end): return [.endStep(end)]
        case .waiting(let actions): return actions
        }
    }

    mutating func fire(_ timer: CallAttempt.Timer, at ms: Int64) -> [Action] {
        attempt.timerFired(timer, at: Self.at(ms))
    }

    /// The connection opened at `ms`, handed to the client at `handedOverMs` (`ms` if not given).
    mutating func open(at ms: Int64, handedOverMs: Int64? = nil) -> [Action] {
        attempt.connectionOpened(at: Self.at(ms), now: Self.at(handedOverMs ?? ms))
    }

    mutating func check(at ms: Int64) -> [Action] {
        attempt.checkWait(at: Self.at(ms)).actions
    }

    /// The caller hangs up, on a connection that is gone (nothing to send).
    mutating func hangUp() {
        _ = attempt.hangUp(connected: false)
    }

    /// The microphone opens at `ms`, silent.
    mutating func openMicrophone(at ms: Int64) {
        _ = attempt.openMicrophone(frameMs: 20, at: Self.at(ms), speaking: nil)
    }

    /// `count` 40 ms chunks of agent audio arriving at `from`, `from + everyMs`, … (0: all at
    /// once, faster than real time); the actions of all.
    @discardableResult
    mutating func agentAudio(from: Int64, count: Int, everyMs: Int64 = 40, rms: Float = 0.2, turnKey: String? = nil) -> [Action] {
        (0..<count).flatMap { index in
            receive(.agentAudio(Self.chunk(rms: rms, turnKey: turnKey)), at: from + everyMs * Int64(index))
        }
    }

    /// The actions that end a waiting step.
    static func ends(_ end: CallAttempt.StepEnd) -> [Action] {
        [.cancel(.stepTimeout), .cancel(.recheck), .endStep(end)]
    }
}

extension CallAttempt.Action {
    /// What the script's codec sends for `intent`: one text frame that names it.
    static func send(_ intent: ClientIntent) -> Self {
        .sendFrame(.text("\(intent)"))
    }
}
