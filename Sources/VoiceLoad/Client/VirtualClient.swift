import NIOCore
import NIOHTTP1
import WSClient
import WSCore

/// One caller: a virtual client for the whole run, placing calls one after another
/// (iterations), each call one or more call attempts (a reconnect starts a new one). It runs
/// entirely on the event loop of its own connection: the actor's executor *is* that loop, so
/// frames from the channel handler, pacing timers and steps never hop threads, and no lock or
/// queue sits between a frame and its measurement.
///
/// What happens on an attempt (what a frame means, when a waiting step goes on, which
/// replies are due, every figure of its turns and of the session's row) is `CallAttempt`'s, a
/// value type that holds the dialect's codec: this actor owns the connection, the pacer and
/// the attempt's named timers, sequences the scenario's steps, and carries out the attempt's
/// actions (sends, timers, recorder calls).
package actor VirtualClient {
    package nonisolated let eventLoop: any EventLoop
    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        eventLoop.executor.asUnownedSerialExecutor()
    }

    let plan: SessionPlan
    let recorder: Recorder
    /// Where this client's frames are counted: its loop's own, no lock shared with other loops.
    let loopRecorder: LoopRecorder
    let clientIndex: Int
    /// How this caller sounds (`callers:`), drawn with the run's seed; nil when callers do not vary.
    let voice: CallerVoice?
    /// The frames of every clip as this caller speaks them (the plan's when callers do not vary).
    let frameSets: [String: FrameSet]

    // State of the current call (one iteration).
    var iteration = 0
    /// The current call attempt: this actor carries out its actions.
    var attempt: CallAttempt
    /// The scheduled tasks of the attempt's named timers.
    var timers: [CallAttempt.Timer: Scheduled<Void>] = [:]
    /// The step suspended in `wait`, resumed by the attempt's `endStep` action.
    var stepContinuation: CheckedContinuation<Void, any Error>?
    /// The call's row in sessions.csv.
    var session: SessionRecord
    /// What the call keeps to be recorded (docs/recordings.md); nil when the run records nothing.
    var recording: CallRecording?
    /// The open connection: a WebSocket, or a WebRTC call (`CallerConnection`).
    var connection: (any CallerConnection)?
    /// The attempt's WebRTC call, kept past its close until the attempt ends for its RTP figures.
    var webRTCCall: WebRTCCallConnection?
    /// Whether any attempt of the call under way got ready (its next backoff resets).
    var sessionGotReady = false
    /// When the load model meant the session to start (`ready_from_scheduled_ms` counts from it).
    var scheduledAt: MonotonicInstant?
    /// Paces the audio stream (with the other clients of the loop).
    let pacer: FramePacer
    /// Counts audio streams: a frame queued with the pacer for an earlier one is not sent.
    var pacingToken = 0
    /// Counts the caller's call attempts: events of an earlier attempt's connection are told
    /// apart by it. Still needed although `CallAttempt` tracks its connection's phase: each
    /// attempt is a fresh value, which cannot tell a late close of the previous socket (or a
    /// frame still in flight on it) from its own connection's events.
    var attemptSerial = 0
    /// Think times: a stream of its own per client and iteration, from the scenario's seed.
    var random: SeededGenerator
    /// Fails the connection being opened, which a wind-down stops waiting for (`abandonConnect`).
    var abandonPendingConnect: (() -> Void)?

    /// `pacers`: the frame pacers of the run's event loops, shared by their clients (the
    /// client gets a pacer of its own without them).
    package init(index: Int, plan: SessionPlan, recorder: Recorder, eventLoop: any EventLoop, pacers: FramePacers? = nil) {
        self.clientIndex = index
        self.plan = plan
        // Made here, on the task that creates the caller, not on its event loop (docs/callers.md).
        let voice = plan.callerAudio.map { $0.variation.voice(ofCaller: index, seed: plan.scenario.seed) }
        self.voice = voice
        self.frameSets = voice.flatMap { plan.callerAudio?.frameSets(for: $0) } ?? plan.frameSets
        if voice?.noise != nil, let noise = plan.simulatorNoise {
            for set in frameSets.values { noise.tell(set.utterance) }
        }
        self.recorder = recorder
        self.loopRecorder = recorder.loopRecorder(for: eventLoop)
        self.eventLoop = eventLoop
        self.pacer = pacers?.pacer(for: eventLoop) ?? FramePacer(eventLoop: eventLoop)
        self.attempt = Self.attempt(plan: plan, client: index, iteration: 0, attempts: SessionAttempts(policy: plan.scenario.reconnect))
        var session = SessionRecord(client: index, iteration: 0)
        session.voice = voice
        self.session = session
        self.recording = plan.recordingDesk.map { _ in CallRecording(client: index, iteration: 0) }
        self.random = Self.randomStream(plan: plan, client: index, iteration: 0)
    }

    private static func attempt(
        plan: SessionPlan,
        client: Int,
        iteration: Int,
        attempts: SessionAttempts,
        windDownDeadline: MonotonicInstant? = nil
    ) -> CallAttempt {
        CallAttempt(
            codec: plan.dialect.makeCodec(parameters: plan.scenario.sessionParameters),
            tracker: plan.trackerConfiguration,
            client: client,
            iteration: iteration,
            readySignal: plan.dialect.readySignal,
            turnEndSignal: plan.dialect.turnEndSignal,
            keepAlive: plan.keepAlive,
            awaitsSessionEndOnHangUp: plan.dialect.awaitsSessionEndOnHangUp,
            attempts: attempts,
            windDownDeadline: windDownDeadline,
            agentAudioCaptureBytes: plan.recordingDesk?.agentAudioBytesPerCall
        )
    }

    private static func randomStream(plan: SessionPlan, client: Int, iteration: Int) -> SeededGenerator {
        SeededGenerator(seed: plan.scenario.seed &+ UInt64(client) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(iteration) &* 0xBF58_476D)
    }

    /// Places one call (a session of the report) of the scenario; every outcome is recorded,
    /// nothing is thrown.
    /// `scheduledAt` is when the load model meant it to start (now when not given): how late
    /// it began is the generator's `start_lag_ms`, and `ready_from_scheduled_ms` counts from it.
    /// Returns whether the session got ready (on any of its attempts): a client of a closed
    /// model backs off before its next session when it did not (`RetryBackoff`).
    @discardableResult
    @inline(never)
    package func runSession(iteration: Int, scheduledAt: MonotonicInstant? = nil) async -> Bool {
        startSession(iteration: iteration, scheduledAt: scheduledAt)
        do {
            try await runReconnecting()
        } catch {
            sessionEnded(by: error)
            if error is SessionWoundDown { await hangUpWindingDown() }
        }
        return endSession()
    }

    /// Out of line, as every synchronous part of an async step (`VirtualClient+Steps`).
    @inline(never)
    private func startSession(iteration: Int, scheduledAt: MonotonicInstant?) {
        resetSession(iteration: iteration)
        let startedAt = MonotonicInstant.now()
        let scheduled = min(scheduledAt ?? startedAt, startedAt)
        self.scheduledAt = scheduled
        recorder.sessionStarted(client: clientIndex, iteration: iteration, at: startedAt)
        if scheduledAt != nil { recorder.recordStartLag(microseconds: startedAt.microseconds(since: scheduled)) }
    }

    /// The session failed, or wound down (`SessionWoundDown`).
    @inline(never)
    private func sessionEnded(by error: any Error) {
        if error is SessionWoundDown {
            session.outcome = .woundDown
            return
        }
        session.outcome = .failed
        if let failure = error as? SessionFailure {
            session.errorClass = record(failure.errorClass, failure.evidence)
        } else {
            session.errorClass = record(.generatorError, .text("\(error)"))
        }
    }

    /// Records the session's end; returns whether it got ready.
    @inline(never)
    private func endSession() -> Bool {
        recordAttemptEnded(failure: session.outcome == .failed ? session.errorClass : nil)
        finishSession()
        return sessionGotReady
    }

    /// Counts the call attempt that just ended; `failure` names its error class when it
    /// failed (an attempt that got ready and failed later is no failure to reach the endpoint).
    func recordAttemptEnded(failure: String?) {
        recorder.recordAttempt(startedAt: attempt.startedAt ?? .now(), failureBeforeReady: attempt.readyAt != nil ? nil : failure)
    }

    private func resetSession(iteration: Int) {
        self.iteration = iteration
        session = SessionRecord(client: clientIndex, iteration: iteration)
        session.voice = voice
        recording = plan.recordingDesk.map { _ in CallRecording(client: clientIndex, iteration: iteration) }
        sessionGotReady = false
        resetAttempt(attempts: SessionAttempts(policy: plan.scenario.reconnect))
    }

    /// A fresh start of the scenario: a new call attempt (a call's first, or a reconnect's).
    /// The wind-down's deadline carries over.
    func resetAttempt(attempts: SessionAttempts) {
        attemptSerial += 1
        attempt = Self.attempt(
            plan: plan,
            client: clientIndex,
            iteration: iteration,
            attempts: attempts,
            windDownDeadline: attempt.windDownDeadline
        )
        random = Self.randomStream(plan: plan, client: clientIndex, iteration: iteration)
        connection = nil
    }

    func connect(timeoutMs: Int) async throws {
        var endpoint: WebSocketEndpoint
        switch plan.target {
        case .webSocket(let target):
            // Each session its own URL where the dialect names sessions in it (ADK).
            let sessionNumber = clientIndex * 100_000 + iteration + 1
            endpoint = plan.dialect.endpoint(for: target, parameters: plan.scenario.sessionParameters, session: sessionNumber)
        case .rest(let restEndpoint, let request):
            let setup = try await runRESTSetup(at: restEndpoint, request: request, timeoutMs: timeoutMs)
            guard let target = try? WebSocketEndpoint(parsing: setup.webSocketURL) else {
                throw SessionFailure(.invalidRESTSetup, .text("the REST answer's WebSocket URL is not a ws(s) URL: \(setup.webSocketURL)"))
            }
            endpoint = target
            attempt.restSetupAdopted(setup)
        case .webRTC(let target):
            return try await connectWebRTC(to: target, timeoutMs: timeoutMs)
        }
        let startedAt = MonotonicInstant.now()
        connectStarted(at: startedAt)
        let future = WebSocketClient.connect(
            to: endpoint,
            headers: (plan.headers + plan.dialect.upgradeHeaders(for: endpoint, parameters: plan.scenario.sessionParameters))
                .map { ($0.name, $0.value) },
            subprotocols: plan.subprotocols,
            on: eventLoop,
            tlsConfiguration: plan.tlsConfiguration,
            connectTimeoutMs: Int64(timeoutMs),
            onEvent: { [self, serial = attemptSerial] event in
                self.enter(.connection(event, attemptSerial: serial))
            }
        )
        let connection: WebSocketConnection
        do {
            connection = try await connectionUnlessWoundDown(future)
        } catch let error as WebSocketConnectError {
            throw Self.failure(of: error, timeoutMs: timeoutMs)
        } catch let woundDown as SessionWoundDown {
            throw woundDown
        } catch {
            throw SessionFailure(.connectFailed, .text("\(error)"))
        }
        self.connection = connection
        session.connectPhases = ConnectPhases(stamps: connection.connectStamps, startedAt: startedAt)
        perform(attempt.connectionOpened(at: connection.openedAt, now: .now()))
    }

    /// The dialect's REST pre-step (docs/dialects.md), timed as `rest_setup_ms`.
    private func runRESTSetup(at endpoint: HTTPEndpoint, request: RESTSetupRequest, timeoutMs: Int) async throws -> RESTSetup {
        attempt.restSetupStarted(at: .now())
        let response: HTTPRequestClient.Response
        do {
            response = try await HTTPRequestClient.send(
                method: HTTPMethod(rawValue: request.method),
                to: endpoint,
                headers: request.headers.map { ($0.name, $0.value) },
                body: request.body,
                on: eventLoop,
                tlsConfiguration: plan.tlsConfiguration,
                timeoutMs: Int64(timeoutMs)
            ).get()
        } catch let error as WebSocketConnectError {
            guard error != .timedOut else {
                throw SessionFailure(.timeout(step: "rest_setup"), .text("no REST answer within \(timeoutMs) ms"))
            }
            throw Self.failure(of: error, timeoutMs: timeoutMs)
        }
        attempt.restSetupAnswered(at: .now())
        guard (200..<300).contains(response.status) else {
            let body = String(decoding: response.body.prefix(WebSocketClientHandshakeHandler.maxRejectionBodyBytes), as: UTF8.self)
            throw SessionFailure(.restRejected(status: response.status), .httpStatus(response.status, body: body))
        }
        guard let setup = plan.dialect.restSetup(from: response.body, request: request) else {
            throw SessionFailure(.invalidRESTSetup, .frame(.binary(response.body), reason: "unusable REST answer"))
        }
        return setup
    }

    func hangUp(timeoutMs: Int) async throws {
        let hangUp = attempt.hangUp(connected: connection != nil)
        perform(hangUp.actions)
        guard connection != nil else { return }
        if hangUp.awaitsSessionEnd {
            // The end-of-session event is optional; its absence is not an error.
            try? await wait(for: .sessionEnded, step: "hangup", timeoutMs: timeoutMs)
        }
        self.connection?.close(code: 1000)
        self.connection = nil
    }

    /// A connect begins, over a WebSocket or WebRTC: the attempt's connect phases and the
    /// recording's time 0 (docs/recordings.md) start at the same instant.
    func connectStarted(at startedAt: MonotonicInstant) {
        attempt.connectStarted(at: startedAt)
        recording?.connectStarted(at: startedAt)
    }

    private func finishSession() {
        endAttempt()
        attempt.fillSessionFigures(of: &session, scheduledAt: scheduledAt)
        recorder.recordSession(session)
        if let desk = plan.recordingDesk, let call = recording?.finished(session: session, endedAt: .now()) {
            desk.callEnded(call)
        }
        recording = nil
    }

    /// Stops what the current connection had going: microphone, timers, replies; a turn still
    /// open is recorded as `aborted`; the connection closes (1000).
    func endAttempt() {
        stopMicrophone()
        for timer in timers.values { timer.cancel() }
        timers.removeAll()
        perform(attempt.attemptEnded())
        recording?.attemptEnded(agentAudio: attempt.takeAgentCapture())
        if let call = webRTCCall {
            session.rtp = (session.rtp ?? RTPReceiveCounts()) + RTPReceiveCounts(call.receiveStatistics, srtpProfile: call.srtpProfile)
            webRTCCall = nil
        }
        if let connection {
            connection.close(code: 1000)
            self.connection = nil
        }
    }

    /// The session failure a failed connect (or REST request) is counted as.
    static func failure(of error: WebSocketConnectError, timeoutMs: Int) -> SessionFailure {
        switch error {
        case .connectionRefused(let reason): return SessionFailure(.connectRefused, .text(reason))
        case .dnsFailed(let reason): return SessionFailure(.dnsFailed, .text(reason))
        case .connectFailed(let reason): return SessionFailure(.connectFailed, .text(reason))
        case .tlsUntrustedCertificate(let reason): return SessionFailure(.tlsUntrustedCertificate, .text(reason))
        case .tlsHostnameMismatch(let reason): return SessionFailure(.tlsHostnameMismatch, .text(reason))
        case .tlsFailed(let reason): return SessionFailure(.tlsFailed, .text(reason))
        case .upgradeRejected(let status, let body):
            return SessionFailure(.upgradeRejected(status: status), .httpStatus(status, body: body))
        case .timedOut:
            return SessionFailure(.timeout(step: "connect"), .text("no WebSocket open (TCP, TLS and upgrade) within \(timeoutMs) ms"))
        case .invalidUpgradeResponse(let reason): return SessionFailure(.invalidUpgrade, .text(reason))
        }
    }
}
