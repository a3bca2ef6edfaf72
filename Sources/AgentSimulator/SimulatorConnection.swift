import NIOCore
import VoiceLoad
import WSCore
import WSServer

/// Drives one session's `SimulatorSession` from its WebSocket: decodes frames with the
/// server side of the dialect, runs the actions, keeps the timers. Runs on the connection's
/// event loop (the actor's executor), like a virtual client.
///
/// The reply audio's chunks (25 a second per speaking session at the default 40 ms chunks) are
/// paced by the loop's `FramePacer`, as the clients' frames are (`SimulatorSessionClocks`).
actor SimulatorConnection: SimulatorClockedStream {
    nonisolated let eventLoop: any EventLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { eventLoop.executor.asUnownedSerialExecutor() }

    private let connection: WebSocketServerConnection
    private var codec: any ServerCodec
    private let audio: ReplyAudio
    private let faultFrames: FaultFrames
    private let onFinish: @Sendable (SimulatorStatistics, [Int64]) -> Void
    /// The agent's slowdown at this moment (from the sessions open across the simulator).
    private let slowdown: @Sendable () -> Double
    private var session: SimulatorSession
    private var clocks: SimulatorSessionClocks
    private var finished = false
    /// The close the dialect refuses this session with, right after the open (nil: served).
    private let refusal: ServerRefusal?

    init(
        connection: WebSocketServerConnection,
        dialect: any ServerDialect,
        audio: ReplyAudio,
        faultFrames: FaultFrames,
        configuration: SimulatorConfiguration,
        sessionNumber: UInt64,
        replyFaults: ReplyFaultDrawer?,
        noise: NoiseWindows?,
        pacer: FramePacer,
        slowdown: @escaping @Sendable () -> Double,
        onFinish: @escaping @Sendable (SimulatorStatistics, [Int64]) -> Void
    ) {
        self.eventLoop = connection.eventLoop
        self.connection = connection
        self.codec = dialect.makeCodec(target: connection.request.target)
        self.refusal = dialect.refusal(requestHeaders: connection.request.headers)
        self.audio = audio
        self.faultFrames = faultFrames
        self.onFinish = onFinish
        self.slowdown = slowdown
        self.clocks = SimulatorSessionClocks(eventLoop: connection.eventLoop, pacer: pacer)
        self.session = SimulatorSession(
            configuration: configuration,
            sessionStart: dialect.sessionStart,
            speaks: dialect.speaks,
            awaitsToolResults: dialect.awaitsToolResults,
            inputFormat: dialect.inputFormat,
            chunkCounts: audio.chunkCounts,
            sessionNumber: sessionNumber,
            replyFaults: replyFaults,
            noise: noise
        )
    }

    /// Called on the loop when the connection is set up; from here on frames flow in.
    nonisolated func attach() {
        let refused = assumeIsolated { connection -> Bool in
            guard let refusal = connection.refusal else { return false }
            connection.connection.close(code: refusal.code, reason: refusal.reason)
            connection.finish()
            return true
        }
        guard !refused else { return }
        assumeIsolated { connection in
            connection.session.slowdown = connection.slowdown()
            connection.perform(connection.session.opened(at: .now()))
        }
        // Delivered on the loop once every read of its turn is stamped (`WebSocketServerConnection`).
        connection.setEventHandler { [self] event in
            self.assumeIsolated { $0.handle(event) }
        }
    }

    private func handle(_ event: WebSocketConnectionEvent) {
        switch event {
        case .frame(let timestamped):
            let intents: [ClientIntent]
            do {
                intents = try codec.receive(timestamped.frame)
            } catch {
                return  // a frame the agent does not understand is ignored, as a lenient server would
            }
            let acknowledgements = codec.takeAcknowledgements()
            for frame in acknowledgements { connection.queue(EncodedFrame(frame)) }
            if !acknowledgements.isEmpty { connection.flush() }
            session.slowdown = slowdown()
            session.endOfTurnWithdrawable = codec.withdrawsEndOfTurnOnResume
            for intent in intents {
                perform(session.receive(intent, at: timestamped.receivedAt))
            }
        case .closed, .failed:
            finish()
        }
    }

    /// Runs the actions. The messages they send go out together, in one write when the
    /// actions are done (or with the close frame): a reply's events and its first audio, or a
    /// final transcript and its utterance end, cost the loop one system call, not one each.
    private func perform(_ actions: [SimulatorSession.Action]) {
        var queued = false
        defer { if queued { connection.flush() } }
        for action in actions {
            if clocks.perform(action, for: self) { continue }
            switch action {
            case .send(let output):
                for frame in codec.frames(for: output) {
                    connection.queue(EncodedFrame(frame))
                    queued = true
                }
            case .sendChunk(let clip, let index):
                if let prepared = audio.chunks[clip]?[index] {
                    connection.queue(codec.audioFrame(prepared))
                    queued = true
                }
            case .schedule, .cancel:
                break  // the clocks ran it
            case .close(let code):
                connection.close(code: code, reason: "")
                finish()
            case .sendInvalid(let kind):
                connection.queue(faultFrames.frame(kind))
                queued = true
            case .sendIdleSilence:
                // Never asked for: a WebSocket agent's audio comes in turns (`mediaStarted` is a
                // WebRTC transport's).
                break
            }
        }
    }

    /// A NIO timer's call, on the loop.
    nonisolated func timerDue(_ timer: SimulatorSession.Timer) {
        assumeIsolated { $0.fire(timer) }
    }

    private func fire(_ timer: SimulatorSession.Timer) {
        clocks.fired(timer)
        session.slowdown = slowdown()
        perform(session.timerFired(timer, at: .now()))
    }

    /// The pacer's call, on the loop: the chunk queued with `token` is due.
    nonisolated func pacingDue(token: Int) {
        assumeIsolated { connection in
            guard connection.clocks.isCurrent(chunkToken: token), !connection.finished else { return }
            connection.fire(.nextChunk)
        }
    }

    private func finish() {
        guard !finished else { return }
        finished = true
        clocks.stop()
        var statistics = session.statistics
        statistics.sessions = 1
        onFinish(statistics, session.replyLatenessUs)
    }
}
