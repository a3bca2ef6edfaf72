import WSCore

@testable import AgentSimulator
@testable import VoiceLoad

/// One call between vload's client side of a dialect (`CallAttempt`, which holds the dialect's
/// client codec) and the simulator's server side (`SimulatorSession` and its server codec), on a
/// virtual clock: both sides' timers, the microphone's paced frames and every frame's delivery
/// (a fixed one-way delay) are events of one queue. No socket, no sleep, no real clock.
///
/// It plays the scenario's steps the way `VirtualClient+Steps` does (`DialectCall+Steps`), and
/// carries out the caller's actions as `VirtualClient+Actions` does and the agent's as
/// `SimulatorConnection` does (`DialectCall+Events`). What it records goes to a real `Recorder`.
struct DialectCall {
    enum Event {
        case clientTimer(CallAttempt.Timer, generation: Int)
        case serverTimer(SimulatorSession.Timer, generation: Int)
        /// The microphone's next frame is due (stale unless `token` is the current one).
        case microphoneDue(token: Int)
        /// The upgrade request reaches the server / the upgrade's answer reaches the client.
        case serverOpened
        case clientOpened
        case toServer(WireFrame)
        case toClient(WireFrame)
        /// The client's close reaches the server / the server's close reaches the client.
        case serverSawClose
        case clientSawClose(code: Int)
    }

    /// What a step is suspended on, and so what follows when its wait ends.
    enum Suspension {
        case connecting
        case waiting
        /// A `say` (or a barge-in's speech): until its clip has been sent.
        case speaking
        /// A barge-in: until `after_heard_ms` of the agent's turn has played.
        case bargeInHeard
        /// A barge-in by command: until its interruption has settled.
        case commandSettling
        /// A `tool_reply`: until the agent calls a tool, then for the step's `delay_ms`.
        case toolCalled
        case toolDelay
        case hangingUp
    }

    let plan: SessionPlan
    let oneWayDelayUs: Int64
    var clock: VirtualClock<Event>
    let recorder = Recorder()

    // Client side.
    var attempt: CallAttempt
    var clientConnectionOpen = false
    var clientTimers: [CallAttempt.Timer: Int] = [:]
    var pacingToken = 0
    var nextStep = 0
    var suspension: Suspension?
    /// The step that began the current wait, and what it needs once the wait ends.
    var waitingStep = ""
    var currentBargeIn: BargeInStep?
    var currentToolReply: ToolReplyStep?
    var pendingToolResult: ClientIntent?
    var pendingStepEnd: CallAttempt.StepEnd?
    /// Why the session failed (the step's error), nil when it completed.
    var failure: (any Error)?
    var finished = false
    var session = SessionRecord(client: 0, iteration: 0)
    /// Where each utterance's speech starts and ends, on the virtual clock.
    var speechStarts: [MonotonicInstant] = []
    var speechEnds: [MonotonicInstant] = []
    /// When each interrupt command and each tool result left the client.
    var interruptCommandsSentAt: [MonotonicInstant] = []
    var toolResultsSentAt: [MonotonicInstant] = []
    /// Every turn row, error, unknown event type and warning the caller produced.
    var turns: [TurnRecord] = []
    var errors: [(ErrorClass, ErrorEvidence)] = []
    var unknownEventTypes: [String] = []
    var warnings: [String?] = []

    // Server side.
    let serverDialect: any ServerDialect
    var serverCodec: any ServerCodec
    var agent: SimulatorSession
    let audio: ReplyAudio
    var serverOpen = false
    var serverTimers: [SimulatorSession.Timer: Int] = [:]
    /// Client frames the server codec could not read (the simulator ignores them).
    var serverDecodeErrors: [DialectDecodingError] = []
    /// When the agent sent every reply audio chunk (of a `.reply` clip), every tool call, and
    /// its interruption signals (it sends them all at once).
    var replyChunksSentAt: [MonotonicInstant] = []
    var toolCallsSentAt: [MonotonicInstant] = []
    var agentInterruptedAt: [MonotonicInstant] = []
    /// When each step that waited went on, by step name (`wait_agent_turn_end`).
    var stepsMetAt: [String: MonotonicInstant] = [:]
    /// When the agent sent its first and its last reply audio chunk.
    var firstReplyChunkSentAt: MonotonicInstant? { replyChunksSentAt.first }
    var lastReplyChunkSentAt: MonotonicInstant? { replyChunksSentAt.last }
    /// The length of each frame of user audio the agent received (`ClientIntent.audio`).
    var audioBytesReceived: [Int] = []
    /// The names of the marks the client echoed once their audio had played (telephony).
    var marksPlayed: [String] = []
    /// Every frame each side sent, in order.
    var framesToServer: [WireFrame] = []
    var framesToClient: [WireFrame] = []

    var timerGeneration = 0

    init(plan: SessionPlan, simulator configuration: SimulatorConfiguration, oneWayDelayUs: Int64) throws {
        self.plan = plan
        self.oneWayDelayUs = oneWayDelayUs
        clock = VirtualClock(origin: MonotonicInstant(nanoseconds: 10_000_000_000))
        attempt = CallAttempt(
            codec: plan.dialect.makeCodec(parameters: plan.scenario.sessionParameters),
            tracker: plan.trackerConfiguration,
            client: 0,
            iteration: 0,
            readySignal: plan.dialect.readySignal,
            turnEndSignal: plan.dialect.turnEndSignal,
            keepAlive: plan.keepAlive,
            awaitsSessionEndOnHangUp: plan.dialect.awaitsSessionEndOnHangUp
        )
        let serverDialect = try DialectRegistry.server(configuration.dialect)
        guard case .webSocket(let base) = plan.target else { throw HarnessError("the harness connects to a WebSocket only") }
        let endpoint = plan.dialect.endpoint(for: base, parameters: plan.scenario.sessionParameters, session: 1)
        let audio = try ReplyAudio(configuration: configuration, dialect: serverDialect)
        self.serverDialect = serverDialect
        self.serverCodec = serverDialect.makeCodec(target: endpoint.requestTarget)
        self.audio = audio
        agent = SimulatorSession(
            configuration: configuration,
            sessionStart: serverDialect.sessionStart,
            speaks: serverDialect.speaks,
            awaitsToolResults: serverDialect.awaitsToolResults,
            inputFormat: serverDialect.inputFormat,
            chunkCounts: audio.chunkCounts,
            sessionNumber: 1
        )
    }

    struct HarnessError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    var now: MonotonicInstant { clock.now }

    /// Runs the scenario to its end (or the session's failure); `limitMs` of virtual time at most.
    mutating func run(limitMs: Int64 = 120_000) {
        let limit = now.advanced(byMilliseconds: limitMs)
        session = SessionRecord(client: 0, iteration: 0)
        recorder.sessionStarted(at: now)
        runSteps()
        while !finished, let event = clock.next() {
            guard now <= limit else {
                fail(HarnessError("the call ran past \(limitMs) ms of virtual time"))
                break
            }
            handle(event)
            while let end = pendingStepEnd {
                pendingStepEnd = nil
                resume(end)
            }
        }
        if !finished { fail(HarnessError("nothing left to happen, and the scenario is not over")) }
    }

    mutating func closeConnection() {
        guard clientConnectionOpen else { return }
        clientConnectionOpen = false
        clock.schedule(.serverSawClose, at: now.advanced(byMicroseconds: oneWayDelayUs))
    }

    mutating func fail(_ error: any Error) {
        guard !finished else { return }
        failure = error
        session.outcome = .failed
        finish()
    }

    /// `VirtualClient.finishSession`: the attempt ends, and the session's row is recorded.
    mutating func finish() {
        guard !finished else { return }
        perform(attempt.stopMicrophone())
        clientTimers.removeAll()
        perform(attempt.attemptEnded())
        closeConnection()
        finished = true
        attempt.fillSessionFigures(of: &session, scheduledAt: nil)
        recorder.recordSession(session, at: now)
    }

    // MARK: Microphone

    @discardableResult
    mutating func openMicrophone(speaking clip: FrameSet? = nil) -> MonotonicInstant {
        let stream = attempt.openMicrophone(frameMs: plan.frameMs, at: now, speaking: clip)
        if let dueAt = stream.firstFrameDueAt { clock.schedule(.microphoneDue(token: pacingToken), at: dueAt) }
        return stream.micOpenAt
    }

    mutating func sendDueFrames() {
        guard clientConnectionOpen else { return }
        var clipFinished = false
        sending: while true {
            switch attempt.takeDueFrame(by: now, silence: plan.silenceFrame) {
            case .due(let due):
                sendToServer(Self.wireFrame(due.frame))
                clipFinished = clipFinished || due.clipFinished
            case .notYet(let dueAt):
                clock.schedule(.microphoneDue(token: pacingToken), at: dueAt)
                break sending
            case .stopped:
                break sending
            }
        }
        if clipFinished { perform(attempt.checkWait(at: now).actions) }
    }

    static func wireFrame(_ encoded: EncodedFrame) -> WireFrame {
        switch encoded.kind {
        case .text: return .text(String(decoding: encoded.payload.readableBytesView, as: UTF8.self))
        case .binary: return .binary(Array(encoded.payload.readableBytesView))
        }
    }
}
