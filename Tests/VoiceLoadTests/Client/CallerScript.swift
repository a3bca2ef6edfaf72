import WSCore

@testable import VoiceLoad

/// Drives a `CallerSession` with synthetic time: instants are milliseconds after an arbitrary
/// origin; no socket, no clock, no sleep. Agent audio is 40 ms chunks, voiced unless told.
struct CallerScript {
    typealias Action = CallerSession.Action

    var caller: CallerSession

    /// A caller on a dialect that signals ready by event and whose turns end by event
    /// (`.audioGap`: by a quiet gap), with a 500 ms quiet gap and no jitter buffer; with the
    /// dialect's keep-alive and the scenario's reconnect policy when given.
    init(
        turnEnd: TurnEndSignal = .event,
        readySignal: ReadySignal = .event,
        quietMs: Int64 = 500,
        keepAlive: KeepAlivePolicy? = nil,
        reconnect: ReconnectPolicy? = nil
    ) {
        var configuration = TurnTracker.Configuration()
        configuration.turnEndSignal = turnEnd
        configuration.quietMs = quietMs
        caller = CallerSession(
            tracker: configuration,
            client: 0,
            iteration: 0,
            readySignal: readySignal,
            turnEndSignal: turnEnd,
            keepAlive: keepAlive,
            attempts: SessionAttempts(policy: reconnect)
        )
    }

    static func at(_ ms: Int64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: 10_000_000_000 + UInt64(ms) * 1_000_000)
    }

    static func chunk(durationMs: Int64 = 40, rms: Float = 0.2, turnKey: String? = nil) -> AgentAudioChunk {
        AgentAudioChunk(byteCount: Int(durationMs) * 32, durationUs: durationMs * 1_000, rmsLevel: rms, turnKey: turnKey)
    }

    /// The session got ready at `ms`.
    mutating func ready(at ms: Int64) {
        _ = caller.markReady(at: Self.at(ms))
    }

    /// A frame whose events (and codec replies) arrive at `ms`, handled then.
    mutating func receive(_ events: [NormalizedEvent], replies: [CodecReply] = [], at ms: Int64) -> [Action] {
        caller.receive(.text("frame"), decoded: DecodedFrame(events: events, replies: replies), at: Self.at(ms), now: Self.at(ms))
    }

    mutating func receive(_ event: NormalizedEvent, at ms: Int64) -> [Action] {
        receive([event], at: ms)
    }

    /// A `say` step's utterance whose speech lies at `speechStartMs…speechEndMs` of the stream.
    mutating func utterance(_ label: String = "ask", speechStartMs: Int64, speechEndMs: Int64) {
        _ = caller.tracker.utteranceStarted(
            label: label,
            micOpenAt: Self.at(0),
            speechStartUs: speechStartMs * 1_000,
            speechEndUs: speechEndMs * 1_000
        )
    }

    mutating func wait(for condition: WaitCondition, step: String = "wait", timeoutMs: Int = 10_000, at ms: Int64) -> [Action] {
        caller.beginWait(for: condition, step: step, timeoutMs: timeoutMs, at: Self.at(ms))
    }

    mutating func fire(_ timer: CallerSession.Timer, at ms: Int64) -> [Action] {
        caller.timerFired(timer, at: Self.at(ms))
    }

    /// The connection opened at `ms`, handed to the client at `handedOverMs` (`ms` if not given).
    mutating func open(at ms: Int64, handedOverMs: Int64? = nil) -> [Action] {
        caller.connectionOpened(at: Self.at(ms), now: Self.at(handedOverMs ?? ms))
    }

    mutating func check(at ms: Int64) -> [Action] {
        caller.checkWait(at: Self.at(ms))
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
    static func ends(_ end: CallerSession.StepEnd) -> [Action] {
        [.cancel(.stepTimeout), .cancel(.recheck), .endStep(end)]
    }
}
