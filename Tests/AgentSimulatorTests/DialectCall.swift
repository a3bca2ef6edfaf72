import WSCore

@testable import AgentSimulator
@testable import VoiceLoad

/// One call between vload's client side of a dialect (`CallerSession` and the dialect's client
/// codec) and the simulator's server side (`SimulatorSession` and its server codec), on a
/// virtual clock: both sides' timers, the microphone's paced frames and every frame's delivery
/// (a fixed one-way delay) are events of one queue. No socket, no sleep, no real clock.
///
/// It plays the scenario's `connect`, `wait`, `say` and `hangup` steps the way `VirtualClient`
/// does (connect → frames on open and ready on open; say → microphone, utterance, clip sent,
/// the frames after the utterance; hangup → stop frames, the end-of-session wait, close), and
/// carries out the caller's actions as `VirtualClient+Actions` does and the agent's as
/// `SimulatorConnection` does. What it records goes to a real `Recorder`.
struct DialectCall {
    enum Event {
        case clientTimer(CallerSession.Timer, generation: Int)
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

    /// What a step is suspended on.
    enum Suspension {
        case connecting
        case waiting
        case speaking
        case hangingUp
    }

    let plan: SessionPlan
    let oneWayDelayUs: Int64
    var clock: VirtualClock<Event>
    let recorder = Recorder()

    // Client side.
    var caller: CallerSession
    var codec: any ClientCodec
    var clientConnectionOpen = false
    var connectStartedAt: MonotonicInstant?
    var openedAt: MonotonicInstant?
    var startedMs: Double?
    var clientTimers: [CallerSession.Timer: Int] = [:]
    var pacingToken = 0
    var nextStep = 0
    var suspension: Suspension?
    var pendingStepEnd: CallerSession.StepEnd?
    /// Why the session failed (the step's error), nil when it completed.
    var failure: (any Error)?
    var finished = false
    var session = SessionRecord(client: 0, iteration: 0)
    /// Each utterance's mic open and speech span, on the virtual clock.
    var speechEnds: [MonotonicInstant] = []
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
    /// When the agent sent its first reply audio chunk after the utterance (its first chunk
    /// of a `.reply` clip).
    var firstReplyChunkSentAt: MonotonicInstant?
    var lastReplyChunkSentAt: MonotonicInstant?
    /// When each step that waited went on, by step name (`wait_agent_turn_end`).
    var stepsMetAt: [String: MonotonicInstant] = [:]
    private var waitingStep = ""
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
        caller = CallerSession(
            tracker: plan.trackerConfiguration,
            client: 0,
            iteration: 0,
            readySignal: plan.dialect.readySignal,
            turnEndSignal: plan.dialect.turnEndSignal,
            keepAlive: plan.keepAlive
        )
        codec = plan.dialect.makeCodec(parameters: plan.scenario.sessionParameters)
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

    // MARK: Steps

    mutating func runSteps() {
        while !finished, suspension == nil {
            guard nextStep < plan.scenario.steps.count else { return finish() }
            if let failure = caller.failure { return fail(failure) }
            let step = plan.scenario.steps[nextStep]
            nextStep += 1
            switch step {
            case .connect:
                connectStartedAt = now
                suspension = .connecting
                clock.schedule(.serverOpened, at: now.advanced(byMicroseconds: oneWayDelayUs))
            case .wait(let wait):
                let condition = caller.condition(for: wait.target, graceMs: plan.scenario.quietMs, at: now)
                beginWait(condition, step: step.name, timeoutMs: wait.timeoutMs, suspension: .waiting)
            case .say(let say):
                guard let frames = plan.frameSets[say.audioKey] else { return fail(HarnessError("no prepared audio")) }
                let micOpenAt = openMicrophone(speaking: frames)
                let boundaries = frames.utterance.boundaries
                speechEnds.append(micOpenAt.advanced(byMicroseconds: boundaries.speechEndUs))
                perform(
                    caller.utteranceStarted(
                        label: say.label ?? caller.nextUtteranceLabel("turn"),
                        micOpenAt: micOpenAt,
                        speechStartUs: boundaries.speechStartUs,
                        speechEndUs: boundaries.speechEndUs
                    )
                )
                beginWait(.clipSent, step: "say", timeoutMs: frames.frames.count * frames.frameMs + 10_000, suspension: .speaking)
            case .hangup(let timeoutMs):
                caller.hangingUp = true
                perform(caller.stopMicrophone())
                let stopFrames = codec.frames(for: .stop)
                for frame in stopFrames { sendToServer(frame) }
                if !stopFrames.isEmpty, plan.dialect.awaitsSessionEndOnHangUp {
                    beginWait(.sessionEnded, step: "hangup", timeoutMs: timeoutMs, suspension: .hangingUp)
                } else {
                    closeConnection()
                }
            default:
                return fail(HarnessError("the harness does not play '\(step.name)' steps"))
            }
        }
    }

    mutating func beginWait(_ condition: WaitCondition, step: String, timeoutMs: Int, suspension: Suspension) {
        let actions = caller.beginWait(for: condition, step: step, timeoutMs: timeoutMs, at: now)
        guard caller.wait != nil else {
            if suspension == .speaking { utteranceSent() }
            if suspension == .hangingUp { closeConnection() }
            return  // the condition holds already
        }
        self.suspension = suspension
        waitingStep = step
        perform(actions)
    }

    /// The waiting step was woken: it goes on, or the session fails (hang-up's wait may time out).
    mutating func resume(_ end: CallerSession.StepEnd) {
        guard let suspended = suspension else { return }
        suspension = nil
        switch suspended {
        case .hangingUp:
            closeConnection()
        case .connecting, .waiting, .speaking:
            if let error = end.error {
                if let timedOut = error as? StepTimedOut {
                    // `waitStep` fails the session with the step's timeout.
                    let failure = SessionFailure(.timeout(step: timedOut.step), .text("timed out"))
                    perform(caller.fail(failure))
                    return fail(failure)
                }
                return fail(error)
            }
            stepsMetAt[waitingStep] = now
            if suspended == .speaking { utteranceSent() }
        }
        runSteps()
    }

    /// The clip has been sent: dialects where the client ends its turns commit it now.
    mutating func utteranceSent() {
        let boundary = codec.framesAfterUtterance()
        guard clientConnectionOpen, !boundary.isEmpty else { return }
        for frame in boundary { sendToServer(frame) }
        caller.tracker.utteranceCommitted(at: now)
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
        perform(caller.stopMicrophone())
        clientTimers.removeAll()
        perform(caller.attemptEnded())
        closeConnection()
        finished = true
        if let connectStartedAt, let openedAt, let readyAt = caller.readyAt {
            if plan.dialect.readySignal == .event { session.readyMs = readyAt.milliseconds(since: openedAt) }
            session.sessionSetupTotalMs = readyAt.milliseconds(since: connectStartedAt)
            session.readyFromScheduledMs = readyAt.milliseconds(since: connectStartedAt)
        }
        session.startedMs = startedMs
        session.greetingMs = caller.tracker.greetingMs
        recorder.recordSession(session, at: now)
    }

    // MARK: Microphone

    mutating func openMicrophone(speaking clip: FrameSet) -> MonotonicInstant {
        var microphone = caller.microphone ?? Microphone(frameMs: plan.frameMs, openedAt: now)
        let isNewStream = caller.microphone == nil
        let micOpenAt = microphone.start(clip)
        if isNewStream { caller.streamOpenedAt = microphone.openedAt }
        caller.microphone = microphone
        if isNewStream { schedulePacing() }
        return micOpenAt
    }

    mutating func schedulePacing() {
        guard let microphone = caller.microphone else { return }
        clock.schedule(.microphoneDue(token: pacingToken), at: microphone.deadline(ofFrame: microphone.nextFrameIndex))
    }

    mutating func sendDueFrames() {
        guard var microphone = caller.microphone, clientConnectionOpen else { return }
        var clipFinished = false
        while microphone.deadline(ofFrame: microphone.nextFrameIndex) <= now {
            let next = microphone.takeNextFrame(silence: plan.silenceFrame)
            sendToServer(Self.wireFrame(codec.audioFrame(next.frame)))
            clipFinished = clipFinished || next.clipFinished
        }
        caller.microphone = microphone
        schedulePacing()
        if clipFinished { perform(caller.checkWait(at: now)) }
    }

    static func wireFrame(_ encoded: EncodedFrame) -> WireFrame {
        switch encoded.kind {
        case .text: return .text(String(decoding: encoded.payload.readableBytesView, as: UTF8.self))
        case .binary: return .binary(Array(encoded.payload.readableBytesView))
        }
    }
}
