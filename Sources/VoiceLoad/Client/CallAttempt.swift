import WSCore

/// One call attempt: one connection of a call (a reconnect starts a new attempt of the same
/// call), as a value-type state machine. Connection events, frames as they come off the
/// socket, step starts and timer expiries go in, each with its instant, one method per event;
/// what to do comes out (actions, or a result type of its own where an event needs one). It
/// reads no clock and touches no socket: `VirtualClient` drives it on the connection's event
/// loop and carries out its actions. It pairs with the agent simulator's `SimulatorSession`.
///
/// The attempt holds the dialect's codec: a frame goes in once, raw, and is decoded here (or
/// held, in order, until the connection opens); what the steps send is encoded here too, so
/// the driver only writes frames. Nothing of the transport comes in but `WireFrame`s and the
/// connection's events.
///
/// Its fields are written only by its own methods; the driver reads what it needs. The
/// connection's phase, the codec, the REST step and connect, the hang-up and the failure are
/// private to this file (`private(set)` where the driver reads them); the rest is one private
/// `State` (`+State`), which the methods in the other files reach through `state` (Swift's
/// `private` ends at the file) and the driver never touches. The parts: the connection's
/// phase, the frames held before it opens, the keep-alive and the hang-up (this file), what
/// the scenario's steps decide (`+Steps`), the outgoing audio stream (`+Microphone`), the
/// server's events (`+Events`), the replies timed by playback or delay and the quiet gap that
/// ends a turn (`+Replies`), the waiting step and its conditions (`+Waiting`), what a failure
/// or a wind-down does to the attempt (`+WindDown`), and the figures of the session's row
/// (`+SessionFigures`); the actions, timers and result types are declared in `+Action`. The
/// agent's turns and the caller's utterances are measured by its `TurnTracker`.
struct CallAttempt: Sendable {
    /// Where the attempt's connection is; each phase carries what exists only in it.
    enum Phase: Sendable, Hashable {
        /// Being opened (the REST step, TCP, TLS, the upgrade). Frames that arrive before the
        /// driver has the connection (a server that speaks first, Deepgram `Welcome`) are held,
        /// in order, and handled once it opens: their replies go out after the dialect's
        /// opening frames, and their events are measured from the open.
        case connecting(held: [HeldFrame])
        /// The connection closed before the driver had it (a server that spoke and closed at
        /// once): its held frames are still handled when it is handed over, with no keep-alive.
        case closedBeforeHandover(held: [HeldFrame])
        /// Open since `openedAt` (the upgrade's 101).
        case open(openedAt: MonotonicInstant)
        /// Closed or failed, or the attempt is over; `openedAt` when it had opened.
        case ended(openedAt: MonotonicInstant?)
    }

    /// A frame that arrived before the connection opened.
    struct HeldFrame: Sendable, Hashable {
        var frame: WireFrame
        var receivedAt: MonotonicInstant
        var mediaPayload: [UInt8]?
    }

    /// A step suspended until its condition holds, it times out, or the attempt fails.
    struct Wait: Sendable, Hashable {
        let condition: WaitCondition
        let stepName: String
        /// When it times out.
        let endsAt: MonotonicInstant
    }

    /// A tool call of the agent waiting for a `tool_reply` step.
    struct ToolCall: Sendable, Hashable {
        var name: String
        var id: String?
    }

    /// How the dialect signals ready, and the end of an agent turn.
    let readySignal: ReadySignal
    let turnEndSignal: TurnEndSignal
    /// The dialect's keep-alive, if it has one (`keepAlive` timer).
    let keepAlive: KeepAlivePolicy?
    /// Whether the dialect's server ends the session with an event after the caller's stop.
    let awaitsSessionEndOnHangUp: Bool
    /// Where the connection is.
    private(set) var phase = Phase.connecting(held: [])
    /// The dialect's codec: it decodes what arrives and encodes what the steps send. Only this
    /// file calls it.
    private var codec: any ClientCodec
    /// The frames the REST pre-step's answer says to send on open, instead of the codec's.
    private var restOpeningFrames: [WireFrame]?
    /// The call's attempts before this one (reconnects); `attemptsAfterThis` is the next one's.
    let attempts: SessionAttempts
    /// Whether the caller is hanging up: the connection's end is no failure then.
    private(set) var hangingUp = false
    /// When the attempt's REST pre-step started and was answered, and its connect started.
    private(set) var restStartedAt: MonotonicInstant?
    private(set) var restAnsweredAt: MonotonicInstant?
    private(set) var connectStartedAt: MonotonicInstant?
    /// Why the attempt cannot go on (the first reason).
    private(set) var failure: SessionFailure?
    /// What the attempt's events change beyond the above (`CallAttempt+State.swift`), for its
    /// own methods only: this file's and the `CallAttempt+…` files'. The driver never uses it;
    /// it reads through `windDownDeadline`, `readyAt`, `startedAt` and the methods' results.
    /// (Swift's `private` ends at the file, and the attempt's methods span several.) A stored
    /// property, not a `_read`/`_modify` accessor over a private one: the accessor was not
    /// inlined and cost 1,150 instructions a frame sent (BENCHMARKS.md, "Instructions per frame").
    var state: State

    init(
        codec: any ClientCodec,
        tracker configuration: TurnTracker.Configuration,
        client: Int,
        iteration: Int,
        readySignal: ReadySignal = .event,
        turnEndSignal: TurnEndSignal = .event,
        keepAlive: KeepAlivePolicy? = nil,
        awaitsSessionEndOnHangUp: Bool = false,
        attempts: SessionAttempts = SessionAttempts(policy: nil),
        windDownDeadline: MonotonicInstant? = nil,
        agentAudioCaptureBytes: Int? = nil
    ) {
        self.codec = codec
        self.state = State(
            tracker: TurnTracker(configuration: configuration, client: client, iteration: iteration),
            windDownDeadline: windDownDeadline
        )
        if let agentAudioCaptureBytes { state.agentCapture = AgentAudioCapture(maxCapturedBytes: agentAudioCaptureBytes) }
        self.readySignal = readySignal
        self.turnEndSignal = turnEndSignal
        self.keepAlive = keepAlive
        self.awaitsSessionEndOnHangUp = awaitsSessionEndOnHangUp
        self.attempts = attempts
    }

    /// Set when the run winds down (`windDown(by:)`); carried to the call's next attempt.
    var windDownDeadline: MonotonicInstant? { state.windDownDeadline }

    /// When the connection opened (the upgrade's 101); nil before.
    var openedAt: MonotonicInstant? {
        switch phase {
        case .connecting, .closedBeforeHandover: return nil
        case .open(let openedAt): return openedAt
        case .ended(let openedAt): return openedAt
        }
    }

    /// When the attempt got ready (its event, or the open on dialects that start with it).
    var readyAt: MonotonicInstant? { state.tracker.readyAt }

    /// When the attempt started: its REST pre-step, else its connect.
    var startedAt: MonotonicInstant? { restStartedAt ?? connectStartedAt }

    /// The REST pre-step starts at `at`.
    mutating func restSetupStarted(at: MonotonicInstant) {
        restStartedAt = at
    }

    /// The REST pre-step's answer arrived at `at` (`rest_setup_ms`, whatever its status).
    mutating func restSetupAnswered(at: MonotonicInstant) {
        restAnsweredAt = at
    }

    /// The connect (TCP, TLS, the upgrade) starts at `at`.
    mutating func connectStarted(at: MonotonicInstant) {
        connectStartedAt = at
    }

    /// A frame came off the socket at `receivedAt`, handled at `now`: decoded by the dialect's
    /// codec and applied (`receive(_:decoded:at:now:)`), or held until the open. The only way
    /// a frame enters the attempt: one decode, one call. `mediaPayload` is the packet a WebRTC
    /// call's frame of agent audio was decoded from, which a call that may be recorded keeps.
    mutating func frameArrived(
        _ frame: WireFrame,
        at receivedAt: MonotonicInstant,
        mediaPayload: [UInt8]? = nil,
        now: MonotonicInstant
    ) -> [Action] {
        switch phase {
        case .open, .ended:
            return decodeAndReceive(frame, mediaPayload: mediaPayload, at: receivedAt, now: now)
        case .connecting(var held):
            phase = .ended(openedAt: nil)  // drops the phase's reference: the append is in place
            held.append(HeldFrame(frame: frame, receivedAt: receivedAt, mediaPayload: mediaPayload))
            phase = .connecting(held: held)
            return []
        case .closedBeforeHandover(var held):
            phase = .ended(openedAt: nil)
            held.append(HeldFrame(frame: frame, receivedAt: receivedAt, mediaPayload: mediaPayload))
            phase = .closedBeforeHandover(held: held)
            return []
        }
    }

    private mutating func decodeAndReceive(
        _ frame: WireFrame,
        mediaPayload: [UInt8]?,
        at receivedAt: MonotonicInstant,
        now: MonotonicInstant
    ) -> [Action] {
        if let mediaPayload, state.agentCapture != nil { captureMediaPacket(mediaPayload) }
        let decoded = codec.receive(frame)
        return receive(frame, decoded: decoded, at: receivedAt, now: now)
    }

    /// The connection opened at `at`, handed over at `now`. The dialect's opening frames go
    /// out (or the REST answer's), the attempt is ready on dialects whose ready signal is the
    /// open, the keep-alive starts, and the frames held are handled. A connection that ended
    /// before it was handed over still has its frames handled, but no keep-alive.
    mutating func connectionOpened(at: MonotonicInstant, now: MonotonicInstant) -> [Action] {
        var actions = (restOpeningFrames ?? codec.framesOnOpen()).map(Action.sendFrame)
        let held: [HeldFrame]
        switch phase {
        case .connecting(let frames):
            held = frames
            phase = .open(openedAt: at)
        case .closedBeforeHandover(let frames):
            held = frames
            phase = .ended(openedAt: at)
        case .open, .ended:
            held = []
            phase = .ended(openedAt: at)
        }
        if readySignal == .onOpen { actions += markReady(at: at) }
        if case .open = phase, let policy = keepAlive, policy.everyMs > 0 {
            actions.append(.schedule(.keepAlive, at: now.advanced(byMilliseconds: Int64(policy.everyMs))))
        }
        for frame in held {
            actions += decodeAndReceive(frame.frame, mediaPayload: frame.mediaPayload, at: frame.receivedAt, now: now)
        }
        return actions
    }

    /// The connection closed or failed at `at`: the attempt ends, and fails with `failure`
    /// unless the caller was hanging up.
    mutating func connectionEnded(_ failure: SessionFailure, at: MonotonicInstant, now: MonotonicInstant) -> [Action] {
        switch phase {
        case .connecting(let held): phase = .closedBeforeHandover(held: held)
        case .open(let openedAt): phase = .ended(openedAt: openedAt)
        case .closedBeforeHandover, .ended: break
        }
        if state.sessionEndedAt == nil { state.sessionEndedAt = at }
        var actions = hangingUp ? [] : fail(failure)
        checkWait(at: now).append(to: &actions)
        return actions
    }

    /// The caller hangs up: the microphone stops and, on a `connected` attempt, the dialect's
    /// stop goes out. The connection's end is no failure from here on.
    mutating func hangUp(connected: Bool) -> HangUp {
        hangingUp = true
        var actions = stopMicrophone()
        guard connected else { return HangUp(actions: actions, awaitsSessionEnd: false) }
        let stop = send(.stop)
        actions += stop
        return HangUp(actions: actions, awaitsSessionEnd: !stop.isEmpty && awaitsSessionEndOnHangUp)
    }

    /// The attempt ends: the keep-alive stops, and a turn still open is recorded as `aborted`.
    mutating func attemptEnded() -> [Action] {
        phase = .ended(openedAt: openedAt)
        return [.cancel(.keepAlive)] + emit(state.tracker.finishPendingUtterance(outcome: .aborted))
    }

    /// The `keepAlive` timer fired: the dialect's keep-alive goes out unless the caller is
    /// hanging up, or the microphone is streaming (and the policy does not say always); the
    /// next one is due `everyMs` later, for as long as the connection is open.
    mutating func keepAliveDue(at now: MonotonicInstant) -> [Action] {
        guard case .open = phase, let policy = keepAlive, policy.everyMs > 0 else { return [] }
        let next = Action.schedule(.keepAlive, at: now.advanced(byMilliseconds: Int64(policy.everyMs)))
        guard !hangingUp, state.microphone == nil || policy.whileStreaming else { return [next] }
        return send(.keepAlive) + [next]
    }

    /// The dialect's frames for `intent`, to send (none where the dialect has no such message).
    mutating func send(_ intent: ClientIntent) -> [Action] {
        codec.frames(for: intent).map(Action.sendFrame)
    }

    /// A reply's frames, to send: built now when the codec builds it when it is sent.
    mutating func send(_ content: CodecReply.Content) -> [Action] {
        codec.replyFrames(content).map(Action.sendFrame)
    }

    /// The frames that close an utterance whose clip has been sent, on dialects where the
    /// client ends its turns (OpenAI manual turns: the commit and `response.create`); none on
    /// the others.
    mutating func sendUtteranceEnd() -> [Action] {
        codec.framesAfterUtterance().map(Action.sendFrame)
    }

    /// One frame of the outgoing audio stream, encoded for the wire (most dialects hand back
    /// the frame prepared once per run).
    mutating func encodeAudio(_ audio: PreparedAudio) -> EncodedFrame {
        codec.audioFrame(audio)
    }

    /// The REST pre-step's answer is usable: the codec takes what it holds for later frames,
    /// and its opening frames go out on open instead of the codec's.
    mutating func restSetupAdopted(_ setup: RESTSetup) {
        codec.adoptRESTSetup(setup)
        restOpeningFrames = setup.openingFrames
    }

    /// The attempt cannot go on: remembers why (the first reason), stops the microphone and
    /// wakes the waiting step with that failure.
    mutating func fail(_ failure: SessionFailure) -> [Action] {
        if self.failure == nil { self.failure = failure }
        return stopMicrophone() + endWait(.failed(self.failure ?? failure))
    }

    mutating func timerFired(_ timer: Timer, at now: MonotonicInstant) -> [Action] {
        switch timer {
        case .stepTimeout: return waitTimedOut(at: now)
        case .recheck: return recheckDue(at: now)
        case .quietCheck: return quietCheckDue(at: now)
        case .repliesPlayedOut: return sendRepliesPlayedOut(at: now)
        case .delayedReply(let key): return delayedReplyDue(key)
        case .keepAlive: return keepAliveDue(at: now)
        }
    }
}
