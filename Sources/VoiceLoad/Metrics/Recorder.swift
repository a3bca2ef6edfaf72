import NIOCore
import Synchronization
import WSCore

/// Collects the measurements of a run from every virtual client, on any thread.
///
/// Latencies go into HDR histograms (one per metric); each finished turn and session is
/// handed to the row sink as it happens, so rows reach disk while the run goes on. What
/// happens per frame (a frame sent, a probe read) goes to the `LoopRecorder` of the event loop
/// that made it, not under this recorder's lock; `snapshot()` and `liveFigures()` add the loops'
/// figures in.
package final class Recorder: Sendable {
    package struct Snapshot: Sendable {
        package var histograms: [MetricName: LatencyHistogram]
        /// The turn metrics again, per turn label.
        package var labelHistograms: [String: [MetricName: LatencyHistogram]] = [:]
        package var interruptions = BargeInCounts()
        /// How the replies played for the caller: stalled turns, stalls, `reply_rtf`.
        package var audioContinuity = AudioContinuityCounts()
        /// Steps that timed out with `on_timeout: continue`, by step name.
        package var stepTimeouts: [String: Int] = [:]
        /// Tool calls the agent made, and the results vload sent back.
        package var toolCalls = 0
        package var toolResults = 0
        /// Errors by class name (`upgrade_rejected_401`).
        package var errors: [String: Int]
        /// The first `ErrorExample.perClass` occurrences of each class, by class name.
        package var errorExamples: [String: [ErrorExample]] = [:]
        /// Example slots taken per class (an example is built outside the lock once its slot is taken).
        var errorExampleSlots: [String: Int] = [:]
        /// The distinct `in_band_error_<code>` names of the run so far.
        var inBandErrorNames: Set<String> = []
        /// Sessions and turns that started after the warm-up: the report's counts.
        package var totals = RunTotals()
        /// Reconnects (`reconnect:`), warm-up included as with `errors`.
        package var reconnects = ReconnectCounts()
        /// The agent's RTP streams of the run's WebRTC calls; nil without any.
        package var rtp: RTPReceiveCounts?
        /// The callers' draws (`callers:`), warm-up included: nil when callers do not vary.
        package var callerDraws: CallerDraws?
        package var unknownEvents: Int
        /// The first `UnknownEventType.maxTypes` types of `unknownEvents`, by type, each with its count and first example.
        package var unknownEventTypes: [String: UnknownEventType] = [:]
        /// Server warnings (Deepgram `Warning`) by code (`unknown` without one), warm-up included.
        package var warnings: [String: Int] = [:]
        /// Every paced frame sent, warm-up included (from the loops' recorders).
        package var framesSent: Int
        /// Session starts the open model could not make, by reason (`max_in_flight`, `late`).
        package var droppedStarts: [String: Int] = [:]
        /// Sessions and turns that started within the warm-up, left out of everything above
        /// but `errors`, `unknownEvents` and `framesSent`.
        package var warmupTotals = RunTotals()
        /// The run second by second (warm-up included: it is part of the run's course).
        package var timeline: Timeline
        /// Connection attempts and the outages among them (warm-up included).
        package var attempts = OutageTracker()

        /// The report's session counts, from `totals`.
        package var sessionsStarted: Int { totals.sessionsStarted }
        package var sessionsCompleted: Int { totals.sessionsCompleted }
        package var sessionsFailed: Int { totals.sessionsFailed }
        package var sessionsWoundDown: Int { totals.sessionsWoundDown }
    }

    private let state: Mutex<Snapshot>
    private let rowSink: (any RowSink)?
    /// The end of the warm-up: what starts before it is not measured.
    private let warmupEndsAt: MonotonicInstant?
    /// The (client, iteration) of every session that started within the warm-up.
    private let warmupSessionKeys = Mutex(Set<[Int]>())

    /// Empty histograms made before the run, for the metrics' first samples (see `init`).
    private let spareHistograms: Mutex<[LatencyHistogram]>
    /// The per-frame recording of each event loop of the run, by `ObjectIdentifier` of the loop.
    private let loopRecorders: [ObjectIdentifier: LoopRecorder]
    /// The per-frame recording of callers that are not on one of the run's loops (tests).
    private let ownLoopRecorder: LoopRecorder

    /// `startedAt` is the run's start on the monotonic clock, where the timeline begins.
    /// `eventLoops` are the run's loops: each gets a `LoopRecorder` of its own.
    ///
    /// A metric's histogram is made at its first sample, and making one (~190 KB of counts,
    /// zeroed) takes 0.1-0.2 ms: a session's first end, on an event loop, makes a dozen at
    /// once, and the probe saw that loop read 1-3 ms late. `spareHistograms`, made before the
    /// run (`LatencyHistogram.spares`), are taken as metrics first appear; when they run out,
    /// a histogram is made when needed.
    package init(
        rowSink: (any RowSink)? = nil,
        startedAt: MonotonicInstant = .now(),
        warmupEndsAt: MonotonicInstant? = nil,
        spareHistograms: [LatencyHistogram] = [],
        eventLoops: [any EventLoop] = [],
        callerDraws: CallerDraws? = nil
    ) {
        self.rowSink = rowSink
        self.warmupEndsAt = warmupEndsAt
        self.spareHistograms = Mutex(spareHistograms)
        var loopRecorders: [ObjectIdentifier: LoopRecorder] = [:]
        for loop in eventLoops { loopRecorders[ObjectIdentifier(loop)] = LoopRecorder(warmupEndsAt: warmupEndsAt) }
        self.loopRecorders = loopRecorders
        ownLoopRecorder = LoopRecorder(warmupEndsAt: warmupEndsAt)
        var snapshot = Snapshot(
            histograms: [:],
            errors: [:],
            unknownEvents: 0,
            framesSent: 0,
            timeline: Timeline(startedAt: startedAt)
        )
        snapshot.callerDraws = callerDraws
        state = Mutex(snapshot)
    }

    private func inWarmup(_ instant: MonotonicInstant = .now()) -> Bool {
        warmupEndsAt.map { instant < $0 } ?? false
    }

    private func isWarmupSession(client: Int, iteration: Int) -> Bool {
        warmupEndsAt != nil && warmupSessionKeys.withLock { $0.contains([client, iteration]) }
    }

    package func record(_ metric: MetricName, microseconds: Int64) {
        if warmupEndsAt != nil, inWarmup() { return }  // no clock read without a warm-up
        state.withLock { $0.histograms[metric, default: newHistogram()].record(microseconds: microseconds) }
    }

    /// Where the per-frame figures of `eventLoop` go: its own recorder when it is one of the
    /// run's loops, else this recorder's own. Look it up once per client, not per frame.
    package func loopRecorder(for eventLoop: any EventLoop) -> LoopRecorder {
        loopRecorders[ObjectIdentifier(eventLoop)] ?? ownLoopRecorder
    }

    /// One paced frame, recorded by a caller off the run's loops (`LoopRecorder.recordFrameSent`).
    package func recordFrameSent(lagUs: Int64, sentAt: MonotonicInstant = .now()) {
        ownLoopRecorder.recordFrameSent(lagUs: lagUs, sentAt: sentAt)
    }

    /// The lags of one probe read, recorded by a caller off the run's loops (`LoopRecorder.recordReceiveLags`).
    package func recordReceiveLags(_ lagsUs: [Int64], readAt: MonotonicInstant = .now()) {
        ownLoopRecorder.recordReceiveLags(lagsUs, readAt: readAt)
    }

    /// How late a session began against its schedule (the generator's start lag).
    package func recordStartLag(microseconds: Int64) {
        state.withLock { $0.histograms[.startLagMs, default: newHistogram()].record(microseconds: microseconds) }
    }

    /// A scheduled start that was not made (counted, never silently delayed).
    package func recordDroppedStart(reason: DroppedStart) {
        state.withLock { $0.droppedStarts[reason.rawValue, default: 0] += 1 }
    }

    /// Counts an error of `errorClass` by `client` in its session `iteration`. Its detail is
    /// built (by the caller's `Redactor`) only for the first `ErrorExample.perClass` of the
    /// class, so recording the thousandth costs a lock and a counter. Returns the class name
    /// it was counted under: an in-band error code past the run's `maxInBandErrorCodes`
    /// distinct ones is counted as `in_band_error_other`.
    @discardableResult
    package func recordError(
        _ errorClass: ErrorClass,
        at instant: MonotonicInstant = .now(),
        client: Int,
        iteration: Int,
        detail: @autoclosure () -> ErrorDetail
    ) -> String {
        let (name, wantsExample, startedAt) = state.withLock { state -> (String, Bool, MonotonicInstant) in
            let name = Self.reportName(of: errorClass, in: &state)
            state.errors[name, default: 0] += 1
            state.timeline.error(at: instant)
            let slots = state.errorExampleSlots[name, default: 0]
            guard slots < ErrorExample.perClass else { return (name, false, state.timeline.startedAt) }
            state.errorExampleSlots[name] = slots + 1
            return (name, true, state.timeline.startedAt)
        }
        guard wantsExample else { return name }
        let seconds = instant < startedAt ? 0 : instant.milliseconds(since: startedAt) / 1_000
        let example = ErrorExample(tS: (seconds * 1_000).rounded() / 1_000, client: client, iteration: iteration, detail: detail().text)
        state.withLock { state in
            var examples = state.errorExamples[name, default: []]
            examples.append(example)
            examples.sort(by: ErrorExample.precedes)
            state.errorExamples[name] = examples
        }
        return name
    }

    /// Distinct in-band error codes counted under their own class; later ones are `in_band_error_other`.
    package static let maxInBandErrorCodes = 20

    private static func reportName(of errorClass: ErrorClass, in state: inout Snapshot) -> String {
        let name = errorClass.name
        guard case .inBandError(let code) = errorClass, ErrorClass.reportCode(code) != nil else { return name }
        if state.inBandErrorNames.contains(name) { return name }
        guard state.inBandErrorNames.count < maxInBandErrorCodes else { return "in_band_error_other" }
        state.inBandErrorNames.insert(name)
        return name
    }

    /// A session reconnects after an error counted under `name` (what `recordError` returned;
    /// recorded as an error too).
    package func recordReconnect(afterErrorNamed name: String) {
        state.withLock { $0.reconnects.reconnected(afterErrorNamed: name) }
    }

    /// A step timed out and the scenario went on (`on_timeout: continue`).
    package func recordStepTimeout(_ step: String) {
        state.withLock { $0.stepTimeouts[step, default: 0] += 1 }
    }

    package func recordToolCall() {
        state.withLock { $0.toolCalls += 1 }
    }

    package func recordToolResult() {
        state.withLock { $0.toolResults += 1 }
    }

    /// Counts an inbound frame no rule matched, of `type`. Its example is built only for the
    /// first frame of each of the first `UnknownEventType.maxTypes` types, outside the lock.
    package func recordUnknownEvent(type: String, example: @autoclosure () -> String) {
        let name = UnknownEventType.name(type)
        let isNewType = state.withLock { state -> Bool in
            state.unknownEvents += 1
            if state.unknownEventTypes[name] != nil {
                state.unknownEventTypes[name]?.count += 1
                return false
            }
            guard state.unknownEventTypes.count < UnknownEventType.maxTypes else { return false }
            state.unknownEventTypes[name] = UnknownEventType(type: name, count: 1, example: "")
            return true
        }
        guard isNewType else { return }
        let text = example()
        state.withLock { $0.unknownEventTypes[name]?.example = text }
    }

    /// A connection attempt (a session's first, or a reconnect) ended; `failure` is its error
    /// class name when it failed before it was ready.
    package func recordAttempt(startedAt: MonotonicInstant, endedAt: MonotonicInstant = .now(), failureBeforeReady failure: String?) {
        state.withLock { $0.attempts.attemptEnded(startedAt: startedAt, endedAt: endedAt, failureBeforeReady: failure) }
    }

    /// The attempt that started at `attemptStartedAt` got ready.
    package func recordReady(attemptStartedAt: MonotonicInstant, at instant: MonotonicInstant) {
        state.withLock { $0.attempts.ready(attemptStartedAt: attemptStartedAt, at: instant) }
    }

    package func recordWarning(code: String?) {
        state.withLock { $0.warnings[code ?? "unknown", default: 0] += 1 }
    }

    /// A session began; within the warm-up it is counted apart and its figures left out.
    package func sessionStarted(client: Int = 0, iteration: Int = 0, at instant: MonotonicInstant = .now()) {
        if inWarmup(instant) {
            warmupSessionKeys.withLock { _ = $0.insert([client, iteration]) }
            state.withLock {
                $0.warmupTotals.sessionsStarted += 1
                $0.timeline.sessionStarted(at: instant)
            }
            return
        }
        state.withLock {
            $0.totals.sessionsStarted += 1
            $0.timeline.sessionStarted(at: instant)
        }
    }

    /// A finished turn: its latencies go to the histograms, its row to the sink. A turn whose
    /// speech began within the warm-up is only counted as such.
    package func recordTurn(_ turn: TurnRecord, at instant: MonotonicInstant = .now()) {
        let warmup = turn.speechStartAt.map { inWarmup($0) } ?? isWarmupSession(client: turn.client, iteration: turn.iteration)
        state.withLock { state in
            state.timeline.turnFinished(at: instant, completed: turn.outcome == .completed, firstAudioFromEndUs: turn.firstAudioFromEndUs)
            if warmup {
                state.warmupTotals.turnsByOutcome[turn.outcome, default: 0] += 1
                return
            }
            state.totals.turnsByOutcome[turn.outcome, default: 0] += 1
            if let cause = turn.turnEndBy { state.totals.turnEndsByCause[cause, default: 0] += 1 }
            if let resumed = turn.turnsResumed {
                state.totals.turnsResumed += resumed
                state.totals.turnsSignalled += 1
            }
            for metric in TurnRecord.metricNames {
                guard let microseconds = turn.value(of: metric) else { continue }
                state.histograms[metric, default: newHistogram()].record(microseconds: microseconds)
                state.labelHistograms[turn.label, default: [:]][metric, default: newHistogram()].record(microseconds: microseconds)
            }
            if turn.bargeIn { state.interruptions.add(turn) }
            state.audioContinuity.add(turn)
        }
        rowSink?.write(turn)
    }

    /// A finished session: its session-level latencies go to the histograms, its row to the sink.
    package func recordSession(_ session: SessionRecord, at instant: MonotonicInstant = .now()) {
        let warmup = isWarmupSession(client: session.client, iteration: session.iteration)
        state.withLock { state in
            state.timeline.sessionEnded(at: instant)
            state.reconnects.add(session)
            if let voice = session.voice { state.callerDraws?.add(voice) }
            guard !warmup else {
                state.warmupTotals.sessionEnded(session.outcome)
                return
            }
            state.totals.sessionEnded(session.outcome)
            state.interruptions.add(session.backchannels)
            add(.restSetupMs, session.restSetupUs, to: &state)
            add(.connectMs, session.connectUs, to: &state)
            add(.dnsMs, session.connectPhases?.dnsUs, to: &state)
            add(.tcpMs, session.connectPhases?.tcpUs, to: &state)
            add(.tlsMs, session.connectPhases?.tlsUs, to: &state)
            add(.upgradeMs, session.connectPhases?.upgradeUs, to: &state)
            add(.signallingMs, session.webRTCPhases?.signallingUs, to: &state)
            add(.iceMs, session.webRTCPhases?.iceUs, to: &state)
            add(.dtlsMs, session.webRTCPhases?.dtlsUs, to: &state)
            add(.dataChannelOpenMs, session.webRTCPhases?.dataChannelOpenUs, to: &state)
            if let rtp = session.rtp { state.rtp = (state.rtp ?? RTPReceiveCounts()) + rtp }
            add(.startedMs, session.startedUs, to: &state)
            add(.readyMs, session.readyUs, to: &state)
            add(.sessionSetupTotalMs, session.sessionSetupTotalUs, to: &state)
            add(.readyFromScheduledMs, session.readyFromScheduledUs, to: &state)
            add(.greetingMs, session.greetingUs, to: &state)
        }
        rowSink?.write(session)
    }

    private func add(_ metric: MetricName, _ microseconds: Int64?, to state: inout Snapshot) {
        guard let microseconds else { return }
        state.histograms[metric, default: newHistogram()].record(microseconds: microseconds)
    }

    /// A histogram for a metric's first sample: a spare if one is left.
    private func newHistogram() -> LatencyHistogram {
        spareHistograms.withLock { $0.popLast() } ?? LatencyHistogram()
    }

    /// The run so far, the loops' figures added in.
    package func snapshot() -> Snapshot {
        let loops = loopFigures()
        var snapshot = state.withLock { $0 }
        snapshot.framesSent = loops.framesSent
        if loops.sendLag.count > 0 { snapshot.histograms[.sendLagMs] = loops.sendLag }
        if loops.receiveLag.count > 0 { snapshot.histograms[.receiveLagMs] = loops.receiveLag }
        return snapshot
    }

    /// The run as it stands at `instant`, computed under the lock without copying the state
    /// (so the next record does not pay for a copy).
    package func liveFigures(at instant: MonotonicInstant = .now()) -> LiveFigures {
        let loops = loopFigures()
        return state.withLock { LiveFigures(state: $0, loops: loops, at: instant) }
    }

    /// Every loop's per-frame figures added together.
    private func loopFigures() -> LoopRecorder.Figures {
        var total = LoopRecorder.Figures()
        ownLoopRecorder.add(to: &total)
        for recorder in loopRecorders.values { recorder.add(to: &total) }
        return total
    }
}
