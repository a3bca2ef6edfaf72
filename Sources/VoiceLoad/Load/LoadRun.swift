import Foundation
import NIOCore
import NIOPosix
import WSCore

/// One whole run: clients against an endpoint, rows streamed to CSV, the report written.
package enum LoadRun {
    /// Runs `load` with `plan`, writing turns.csv and sessions.csv into `outputDirectory` as
    /// rows finish and report.json at the end. Returns the report. What starts within
    /// `warmupMs` of the start is left out of the metrics; `thresholds` are judged into the report.
    /// `observer` (live progress, metrics endpoint) watches the run from its start to its last session.
    ///
    /// A time-bounded run stops starting sessions at its end and winds down those still open
    /// `load.drainMs` later. `interruption` (signals) winds the run down too, and the report is
    /// then `interrupted`; until the report is written, a forced exit writes report.json from
    /// the recorder as it stands.
    /// `embeddedSimulator`, when given, is asked once the last session has ended, before the
    /// report is built: the faults the run's built-in simulator injected
    /// (`simulator_faults_injected`) and how late its replies started
    /// (`generator.simulator_reply_late_ms`, judged like the send lag).
    /// `maxLagMs` sets the generator's own validity bound (the p99 of its send lag, of its
    /// receive lag, measured by a `ReceiveLagProbe` on every loop, and of its built-in
    /// simulator's reply lateness; `RunReport.defaultMaxLagMs` when nil).
    /// `overtime` lets a time-bounded closed model go on past its duration while it says so
    /// (`vload capacity` extending a step's hold for samples); the run is not `interrupted` by it.
    /// `recording` picks the calls recorded into `recordings/` (docs/recordings.md), at most
    /// `recordingCapBytes` in all; their summary is in the report.
    /// The one error: the reports cannot be written.
    package static func execute(
        plan: SessionPlan,
        load: LoadProfile,
        outputDirectory: URL,
        simulator: [String: String]?,
        threads: Int = System.coreCount,
        maxLagMs: Double? = nil,
        warmupMs: Int = 0,
        thresholds: [ThresholdExpression] = [],
        observer: (any RunObserver)? = nil,
        interruption: RunInterruption? = nil,
        embeddedSimulator: (@Sendable () async -> EmbeddedSimulatorFigures)? = nil,
        overtime: RunOvertime? = nil,
        recording: RecordPolicy = .none,
        recordingCapBytes: Int = RecordingDesk.defaultCapBytes
    ) async throws(InputError) -> RunReport {
        var plan = plan
        if recording.recordsAny {
            plan.recordingDesk = RecordingDesk(
                policy: recording,
                capBytes: recordingCapBytes,
                reportDirectory: outputDirectory,
                thresholds: thresholds,
                concurrentCalls: load.ownClients.count
            )
        }
        let rows = try writing(to: outputDirectory) {
            try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
            return try CSVRowWriter(directory: outputDirectory)
        }
        defer { rows.close() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, threads))
        let webRTC: Bool
        if case .webRTC = plan.target { webRTC = true } else { webRTC = false }
        await ColdPathWarmUp.run(on: group.next(), webRTC: webRTC)
        let spareHistograms = LatencyHistogram.spares()
        let cpuBefore = ProcessCPU.secondsUsed()
        let startedAt = Date()
        let runStart = MonotonicInstant.now()
        let recorder = Recorder(
            rowSink: rows,
            startedAt: runStart,
            warmupEndsAt: warmupMs > 0 ? runStart.advanced(byMilliseconds: Int64(warmupMs)) : nil,
            spareHistograms: spareHistograms,
            eventLoops: Array(group.makeIterator()),
            callerDraws: plan.callerAudio.map { CallerDraws(ranges: .init($0.variation)) }
        )
        let probe: ReceiveLagProbe?
        let probeFailure: String?
        do {
            probe = try await ReceiveLagProbe.start(on: group) { loop in recorder.loopRecorder(for: loop).recordReceiveLags }
            probeFailure = nil
        } catch {
            (probe, probeFailure) = (nil, error.message)
        }
        // What the report is built from besides the recorder; its end and CPU time are set
        // when the report is made (at the run's end, or at a forced exit).
        var context = RunContext(
            scenario: plan.scenario,
            load: load,
            redactedURL: plan.redactedURL,
            dialect: plan.dialect.id,
            metricsMeasured: plan.metricsMeasured,
            frameMs: plan.frameMs,
            simulator: simulator,
            startedAt: startedAt,
            endedAt: startedAt,
            cpuSeconds: 0,
            cores: System.coreCount
        )
        context.warmupMs = warmupMs
        context.maxLagMs = maxLagMs
        context.receiveLagProbeFailure = probeFailure
        context.tlsInsecure = plan.tlsInsecure
        let runContext = context
        interruption?.setForcedExitReport {
            let report = Self.report(
                runContext,
                thresholds: thresholds,
                snapshot: recorder.snapshot(),
                endedAt: Date(),
                cpuSeconds: ProcessCPU.secondsUsed() - cpuBefore,
                interruptedBy: interruption?.signal
            )
            try? report.jsonData().write(to: outputDirectory.appendingPathComponent("report.json"), options: .atomic)
        }
        defer { interruption?.setForcedExitReport(nil) }
        let sessions = OpenSessions()
        let observation = interruption?.observeWindDown { deadline in sessions.windDown(deadline: deadline) }
        let graceMs = interruption?.graceMs ?? RunInterruption.defaultGraceMs
        let end = RunEnd(load: load, startedAt: runStart, overtime: overtime)
        end.start(
            on: group.next(),
            drainMs: load.drainMs,
            report: {
                Self.report(
                    runContext,
                    thresholds: thresholds,
                    snapshot: recorder.snapshot(),
                    endedAt: Date(),
                    cpuSeconds: ProcessCPU.secondsUsed() - cpuBefore,
                    interruptedBy: nil
                )
            },
            isWindingDown: { sessions.isWindingDown },
            windDown: { sessions.windDown(deadline: .now().advanced(byMilliseconds: Int64(graceMs))) }
        )
        observer?.runStarted(recorder: recorder)
        await Swarm.run(plan: plan, load: load, recorder: recorder, group: group, startedAt: runStart, sessions: sessions, end: end)
        end.cancel()
        if let observation { interruption?.stopObserving(observation) }
        await sessions.close()
        await probe?.stop()
        await observer?.runEnded()
        let endedAt = Date()
        let cpuSeconds = ProcessCPU.secondsUsed() - cpuBefore
        try? await group.shutdownGracefully()
        let simulatorFigures = await embeddedSimulator?()
        let recordings = await plan.recordingDesk?.finish()
        var report = Self.report(
            runContext,
            thresholds: thresholds,
            snapshot: recorder.snapshot(),
            endedAt: endedAt,
            cpuSeconds: cpuSeconds,
            interruptedBy: interruption?.signal,
            simulator: simulatorFigures
        )
        report.recordings = recordings
        try writing(to: outputDirectory) {
            try report.jsonData().write(to: outputDirectory.appendingPathComponent("report.json"), options: .atomic)
            try ReportFiles.write(report, to: outputDirectory)
        }
        // A recording that could not be written fails the run as a report would, once the others are written.
        if let error = plan.recordingDesk?.writeError { throw InputError(error) }
        return report
    }

    /// The report of the run as it stands: `context` with the run's end, the CPU time it used,
    /// the signal that cut it short and the built-in simulator's figures, `thresholds` judged.
    private static func report(
        _ context: RunContext,
        thresholds: [ThresholdExpression],
        snapshot: Recorder.Snapshot,
        endedAt: Date,
        cpuSeconds: Double,
        interruptedBy: InterruptSignal?,
        simulator figures: EmbeddedSimulatorFigures? = nil
    ) -> RunReport {
        var context = context
        context.endedAt = endedAt
        context.cpuSeconds = cpuSeconds
        context.interruptedBy = interruptedBy
        context.simulatorReplyLateness = figures?.replyLateness
        var report = RunReport(context: context, snapshot: snapshot)
        report.simulatorFaultsInjected = figures?.faultsInjected
        report.thresholds = ThresholdEvaluator.evaluate(thresholds, on: report).map(\.result)
        return report
    }

    /// File work in the output directory; any failure is one line naming the directory.
    private static func writing<T>(to directory: URL, _ work: () throws -> T) throws(InputError) -> T {
        do {
            return try work()
        } catch {
            throw InputError("cannot write reports to \(directory.path): \(FileErrorText.reason(of: error))")
        }
    }

    /// `reports/<scenario>-<UTC timestamp>` under `base`.
    package static func defaultOutputDirectory(scenario: String, base: String = "reports", date: Date = Date()) -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return URL(fileURLWithPath: base).appendingPathComponent("\(scenario)-\(formatter.string(from: date))")
    }
}
