import Foundation

extension RunReport {
    /// Builds the report of a finished run.
    package init(context: RunContext, snapshot: Recorder.Snapshot) {
        let durationS = max(context.endedAt.timeIntervalSince(context.startedAt), 0.001)
        scenario = context.scenario.name
        scenarioFile = context.scenario.sourcePath
        startedAt = ReportTimestamp.string(context.startedAt)
        endedAt = ReportTimestamp.string(context.endedAt)
        self.durationS = (durationS * 1_000).rounded() / 1_000
        interrupted = context.interruptedBy != nil
        interruptedBy = context.interruptedBy
        config = Configuration(
            clients: context.load.clients,
            rampUpS: Double(context.load.rampUpMs) / 1_000,
            iterations: context.load.durationMs == nil ? context.load.iterations : nil,
            durationS: context.load.durationMs.map { Double($0) / 1_000 },
            url: context.redactedURL,
            dialect: context.dialect,
            frameMs: context.frameMs,
            quietMs: context.scenario.quietMs,
            simulator: context.simulator,
            metricsMeasured: context.metricsMeasured.sorted().map(\.rawValue),
            load: LoadDescription(context.load),
            drainMs: context.load.durationMs != nil ? context.load.drainMs : nil,
            maxLagMs: context.maxLagMs ?? Self.defaultMaxLagMs,
            tlsInsecure: context.tlsInsecure ? true : nil
        )
        sessions = Sessions(
            started: snapshot.sessionsStarted,
            completed: snapshot.sessionsCompleted,
            failed: snapshot.sessionsFailed,
            interrupted: snapshot.sessionsWoundDown,
            dropped: snapshot.droppedStarts.values.reduce(0, +),
            droppedByReason: snapshot.droppedStarts
        )
        connectionAttempts = ConnectionAttemptCounts(
            total: snapshot.attempts.attempts,
            failedBeforeReady: snapshot.attempts.failedBeforeReady
        )
        let runDurationS = self.durationS
        let outages = snapshot.attempts.outages.map {
            OutageReport($0, runStartedAt: snapshot.timeline.startedAt, runDurationS: runDurationS)
        }
        self.outages = outages.isEmpty ? nil : outages
        turns = Dictionary(uniqueKeysWithValues: snapshot.totals.turnsByOutcome.map { ($0.key.rawValue, $0.value) })
        turnEnds = Dictionary(uniqueKeysWithValues: snapshot.totals.turnEndsByCause.map { ($0.key.rawValue, $0.value) })
        turnsResumed = snapshot.totals.turnsSignalled > 0 ? snapshot.totals.turnsResumed : nil
        metrics = Dictionary(
            uniqueKeysWithValues: MetricName.endpointMetrics.map {
                ($0.rawValue, MetricReport(snapshot.histograms[$0]))
            }
        )
        labels = snapshot.labelHistograms.mapValues { histograms in
            Dictionary(uniqueKeysWithValues: histograms.map { ($0.key.rawValue, MetricReport($0.value)) })
        }
        interruptions = snapshot.interruptions
        audioContinuity = snapshot.audioContinuity.turnsWithAudio > 0 ? snapshot.audioContinuity : nil
        reconnects = context.scenario.reconnect != nil ? snapshot.reconnects : nil
        rtp = snapshot.rtp
        callers = snapshot.callerDraws
        toolCalls = ToolCalls(calls: snapshot.toolCalls, results: snapshot.toolResults)
        stepTimeouts = snapshot.stepTimeouts
        errors = Errors(byClass: snapshot.errors, examples: snapshot.errorExamples)
        unknownEvents = snapshot.unknownEvents
        unknownEventTypes = snapshot.unknownEventTypes.isEmpty ? nil : UnknownEventType.ordered(snapshot.unknownEventTypes.values)
        warnings = snapshot.warnings.isEmpty ? nil : snapshot.warnings
        timeline = snapshot.timeline.points
        if context.warmupMs > 0 {
            warmup = WarmupReport(
                durationS: Double(context.warmupMs) / 1_000,
                excludedSessions: snapshot.warmupTotals.sessionsStarted,
                excludedTurns: snapshot.warmupTotals.turns
            )
        }
        let sendLag = MetricReport(snapshot.histograms[.sendLagMs])
        let receiveLag = MetricReport(snapshot.histograms[.receiveLagMs])
        let startLag = MetricReport(snapshot.histograms[.startLagMs])
        let cpuPercent = (context.cpuSeconds / durationS * 1_000).rounded() / 10
        var problems: [String] = []
        // One bound for the generator's lateness: its sends, its reads and its built-in simulator's replies.
        let lagBoundMs = context.maxLagMs ?? Self.defaultMaxLagMs
        let lagBound = "the \(JSONText.number(lagBoundMs)) ms bound" + (context.maxLagMs == nil ? "" : " (--max-lag-ms)")
        if let p99 = sendLag.p99, p99 > lagBoundMs {
            problems.append("send_lag_ms p99 \(p99) ms exceeds \(lagBound): audio frames left late")
        }
        if let p99 = receiveLag.p99, p99 > lagBoundMs {
            problems.append("receive_lag_ms p99 \(p99) ms exceeds \(lagBound): replies waited in the socket for a busy event loop")
        }
        if let failure = context.receiveLagProbeFailure {
            problems.append("receive_lag_ms not measured (\(failure)): the run's read times cannot be vouched for")
        }
        let simulatorLate = context.simulatorReplyLateness.map { MetricReport($0) }
        if let p99 = simulatorLate?.p99, p99 > lagBoundMs {
            problems.append(
                "simulator_reply_late_ms p99 \(p99) ms exceeds \(lagBound): the built-in simulator shares this machine and fell behind"
            )
        }
        if let p99 = startLag.p99, p99 > Self.startLagLimitMs {
            problems.append(
                "start_lag_ms p99 \(p99) ms: sessions began more than \(Int(Self.startLagLimitMs)) ms after their scheduled start"
            )
        }
        if cpuPercent >= 95 * Double(context.cores) {
            problems.append("CPU \(cpuPercent)% of one core: all \(context.cores) cores busy")
        }
        generator = Generator(
            framesSent: snapshot.framesSent,
            sendLagMs: sendLag,
            receiveLagMs: receiveLag,
            startLagMs: startLag,
            simulatorReplyLateMs: simulatorLate,
            cpuSeconds: (context.cpuSeconds * 1_000).rounded() / 1_000,
            cpuPercentOfOneCore: cpuPercent,
            cores: context.cores,
            healthy: problems.isEmpty,
            problems: problems
        )
    }

    /// The lag p99 above which a run is invalid unless `--max-lag-ms` says otherwise; derived
    /// from measurement (BENCHMARKS.md "The validity bound"): tight enough that a run called
    /// healthy has first audio within 1 ms (p50) and 3 ms (p99) of the truth.
    package static let defaultMaxLagMs = 2.0

    /// A generator whose p99 start lag is above this did not keep to the load model's schedule.
    package static let startLagLimitMs = 250.0

    /// The report as pretty JSON.
    package func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    package static func decode(from data: Data) throws -> RunReport {
        let decoder = JSONDecoder()
        return try decoder.decode(RunReport.self, from: data)
    }
}
