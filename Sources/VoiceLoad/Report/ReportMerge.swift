import Foundation

/// Combines the reports of one load split over several processes or machines
/// (`--segment i/n`, `vload merge`) into the report of the whole run: counts are summed and
/// every HDR histogram is merged, so counts and percentiles are exactly those one process
/// would have measured (to the histogram's three significant digits).
package enum ReportMerge {
    /// The merged report; a one-line error when the reports are not parts of one run.
    package static func merge(_ parts: [RunReport], names: [String]? = nil) throws(InputError) -> RunReport {
        let names = names ?? parts.indices.map { "report \($0 + 1)" }
        guard parts.count >= 2, var merged = parts.first else { throw InputError("merge needs at least two reports") }
        try checkCompatible(parts, names: names)
        let starts = parts.map(\.startedAt)
        let ends = parts.map(\.endedAt)
        merged.startedAt = starts.min() ?? merged.startedAt
        merged.endedAt = ends.max() ?? merged.endedAt
        let startDates = starts.compactMap(ReportTimestamp.date)
        let endDates = ends.compactMap(ReportTimestamp.date)
        if let first = startDates.min(), let last = endDates.max() {
            merged.durationS = (max(last.timeIntervalSince(first), 0.001) * 1_000).rounded() / 1_000
        } else {
            merged.durationS = parts.map(\.durationS).max() ?? merged.durationS
        }
        merged.interrupted = parts.contains(where: \.interrupted)
        merged.interruptedBy = parts.lazy.compactMap(\.interruptedBy).first
        merged.config.load?.segment = nil
        merged.config.load?.segmentCount = nil
        merged.config.tlsInsecure = parts.contains { $0.config.tlsInsecure == true } ? true : nil
        merged.sessions = RunReport.Sessions(
            started: parts.map(\.sessions.started).reduce(0, +),
            completed: parts.map(\.sessions.completed).reduce(0, +),
            failed: parts.map(\.sessions.failed).reduce(0, +),
            interrupted: parts.map { $0.sessions.interrupted ?? 0 }.reduce(0, +),
            dropped: parts.map { $0.sessions.dropped ?? 0 }.reduce(0, +),
            droppedByReason: sum(parts.map { $0.sessions.droppedByReason ?? [:] })
        )
        merged.turns = sum(parts.map(\.turns))
        let turnEnds = parts.compactMap(\.turnEnds)
        merged.turnEnds = turnEnds.isEmpty ? nil : sum(turnEnds)
        let resumed = parts.compactMap(\.turnsResumed)
        merged.turnsResumed = resumed.isEmpty ? nil : resumed.reduce(0, +)
        merged.metrics = mergeMetrics(parts.map(\.metrics))
        let labels = Set(parts.flatMap(\.labels.keys))
        merged.labels = Dictionary(
            uniqueKeysWithValues: labels.map { label in
                (label, mergeMetrics(parts.map { $0.labels[label] ?? [:] }))
            }
        )
        merged.interruptions = parts.dropFirst().reduce(parts[0].interruptions) { total, part in
            var total = total
            total.bargeIns += part.interruptions.bargeIns
            total.acknowledged += part.interruptions.acknowledged
            total.missed += part.interruptions.missed
            total.audioAlreadyDelivered += part.interruptions.audioAlreadyDelivered
            total.lateCancels += part.interruptions.lateCancels
            total.add(Backchannels.Count(spoken: part.interruptions.backchannels, stopped: part.interruptions.backchannelsStopped))
            return total
        }
        let continuity = parts.compactMap(\.audioContinuity)
        merged.audioContinuity = continuity.isEmpty ? nil : continuity.dropFirst().reduce(continuity[0], +)
        let rtp = parts.compactMap(\.rtp)
        merged.rtp = rtp.isEmpty ? nil : rtp.dropFirst().reduce(rtp[0], +)
        let reconnects = parts.compactMap(\.reconnects)
        merged.reconnects = reconnects.isEmpty ? nil : reconnects.dropFirst().reduce(reconnects[0], +)
        let callers = parts.compactMap(\.callers)
        merged.callers = callers.isEmpty ? nil : callers.dropFirst().reduce(callers[0], +)
        merged.recordings = nil  // gathered from the parts' directories by `vload merge` (RecordingMerge)
        merged.toolCalls = RunReport.ToolCalls(
            calls: parts.map(\.toolCalls.calls).reduce(0, +),
            results: parts.map(\.toolCalls.results).reduce(0, +)
        )
        merged.stepTimeouts = sum(parts.map(\.stepTimeouts))
        merged.errors = RunReport.Errors(
            byClass: sum(parts.map(\.errors.byClass)),
            examples: mergeExamples(parts, startedAt: merged.startedAt)
        )
        merged.unknownEvents = parts.map(\.unknownEvents).reduce(0, +)
        let unknownTypes = UnknownEventType.merged(parts.compactMap(\.unknownEventTypes))
        merged.unknownEventTypes = unknownTypes.isEmpty ? nil : unknownTypes
        let attempts = parts.compactMap(\.connectionAttempts)
        merged.connectionAttempts =
            attempts.isEmpty
            ? nil
            : ConnectionAttemptCounts(
                total: attempts.map(\.total).reduce(0, +),
                failedBeforeReady: attempts.map(\.failedBeforeReady).reduce(0, +)
            )
        let outages = mergeOutages(parts, startedAt: merged.startedAt)
        merged.outages = outages.isEmpty ? nil : outages
        let warnings = parts.compactMap(\.warnings).reduce(into: [String: Int]()) { $0.merge($1, uniquingKeysWith: +) }
        merged.warnings = warnings.isEmpty ? nil : warnings
        let injected = parts.compactMap(\.simulatorFaultsInjected)
        merged.simulatorFaultsInjected = injected.isEmpty ? nil : sum(injected)
        merged.generator = mergeGenerators(parts, names: names, durationS: merged.durationS)
        if let warmup = merged.warmup {
            merged.warmup = WarmupReport(
                durationS: warmup.durationS,
                excludedSessions: parts.map { $0.warmup?.excludedSessions ?? 0 }.reduce(0, +),
                excludedTurns: parts.map { $0.warmup?.excludedTurns ?? 0 }.reduce(0, +)
            )
        }
        merged.timeline = TimelineMerge.merge(parts.map { ($0.startedAt, $0.timeline) }, startedAt: merged.startedAt)
        merged.thresholds = []
        merged.mergedFrom = zip(parts, names).map { part, name in
            MergedPart(
                report: name,
                segment: part.config.load?.segment,
                segmentCount: part.config.load?.segmentCount,
                startedAt: part.startedAt,
                sessions: part.sessions.started
            )
        }
        return merged
    }

    /// Reports of different scenarios, dialects, frame lengths or histogram settings, or an
    /// incomplete or repeated set of segments, are not one run.
    static func checkCompatible(_ parts: [RunReport], names: [String]) throws(InputError) {
        let first = parts[0]
        for (part, name) in zip(parts, names).dropFirst() {
            if part.scenario != first.scenario {
                throw InputError("\(name) ran scenario '\(part.scenario)', \(names[0]) '\(first.scenario)': not parts of one run")
            }
            if part.config.dialect != first.config.dialect {
                throw InputError(
                    "\(name) spoke dialect '\(part.config.dialect)', \(names[0]) '\(first.config.dialect)': not parts of one run"
                )
            }
            if part.config.frameMs != first.config.frameMs {
                throw InputError(
                    "\(name) sent \(part.config.frameMs) ms frames, \(names[0]) \(first.config.frameMs) ms: not parts of one run"
                )
            }
            if (part.warmup?.durationS ?? 0) != (first.warmup?.durationS ?? 0) {
                throw InputError("\(name) and \(names[0]) have different warm-ups: not parts of one run")
            }
        }
        for (part, name) in zip(parts, names) {
            let generatorMetrics = [
                part.generator.sendLagMs, part.generator.receiveLagMs, part.generator.startLagMs, part.generator.simulatorReplyLateMs,
            ]
            let histograms = part.metrics.values.compactMap(\.histogram) + generatorMetrics.compactMap { $0?.histogram }
            if let odd = histograms.first(where: {
                $0.lowestDiscernibleValue != 1 || $0.highestTrackableValue != LatencyHistogram.highestTrackableUs
                    || $0.significantDigits != 3 || $0.unit != "us"
            }) {
                throw InputError(
                    "\(name) has histograms with other settings (\(odd.significantDigits) digits, \(odd.unit)): they cannot merge exactly"
                )
            }
        }
        let segments = parts.compactMap { part in part.config.load?.segmentCount.map { (part.config.load?.segment ?? 0, $0) } }
        guard !segments.isEmpty else { return }
        guard segments.count == parts.count, let count = Set(segments.map(\.1)).first, Set(segments.map(\.1)).count == 1 else {
            throw InputError("the reports are not segments of one split (mixed or missing --segment i/n)")
        }
        var seen = Set<Int>()
        for (index, _) in segments where !seen.insert(index).inserted {
            throw InputError("segment \(index)/\(count) is given twice")
        }
        let missing = (1...count).filter { !seen.contains($0) }
        if !missing.isEmpty {
            throw InputError(
                "segment\(missing.count > 1 ? "s" : "") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing: the merge would not be the whole load"
            )
        }
    }

    static func mergeMetrics(_ parts: [[String: MetricReport]]) -> [String: MetricReport] {
        let names = Set(parts.flatMap(\.keys))
        return Dictionary(
            uniqueKeysWithValues: names.map { name in
                (name, mergeMetric(parts.compactMap { $0[name] }))
            }
        )
    }

    /// One metric from its parts' histograms (exact).
    static func mergeMetric(_ parts: [MetricReport]) -> MetricReport {
        var total: LatencyHistogram?
        for part in parts {
            guard let serialized = part.histogram else { continue }
            if total == nil { total = LatencyHistogram() }
            total?.add(serialized.histogram)
        }
        return MetricReport(total)
    }

    private static func mergeGenerators(_ parts: [RunReport], names: [String], durationS: Double) -> RunReport.Generator {
        let cpuSeconds = parts.map(\.generator.cpuSeconds).reduce(0, +)
        var problems: [String] = []
        for (part, name) in zip(parts, names) {
            problems += part.generator.problems.map { "\(name): \($0)" }
        }
        let startLags = parts.compactMap(\.generator.startLagMs)
        let receiveLags = parts.compactMap(\.generator.receiveLagMs)
        let simulatorLates = parts.compactMap(\.generator.simulatorReplyLateMs)
        return RunReport.Generator(
            framesSent: parts.map(\.generator.framesSent).reduce(0, +),
            sendLagMs: mergeMetric(parts.map(\.generator.sendLagMs)),
            receiveLagMs: receiveLags.isEmpty ? nil : mergeMetric(receiveLags),
            startLagMs: startLags.isEmpty ? nil : mergeMetric(startLags),
            simulatorReplyLateMs: simulatorLates.isEmpty ? nil : mergeMetric(simulatorLates),
            cpuSeconds: (cpuSeconds * 1_000).rounded() / 1_000,
            cpuPercentOfOneCore: (cpuSeconds / max(durationS, 0.001) * 1_000).rounded() / 10,
            cores: parts.map(\.generator.cores).reduce(0, +),
            healthy: parts.allSatisfy(\.generator.healthy),
            problems: problems
        )
    }

    /// The first `ErrorExample.perClass` examples of each class over all parts, earliest
    /// first; each part's `t_s` moved to the merged run's start (by the wall clocks).
    static func mergeExamples(_ parts: [RunReport], startedAt: String) -> [String: [ErrorExample]] {
        let origin = ReportTimestamp.date(startedAt)
        var merged: [String: [ErrorExample]] = [:]
        for part in parts {
            let shiftS = origin.flatMap { origin in ReportTimestamp.date(part.startedAt).map { $0.timeIntervalSince(origin) } } ?? 0
            for (name, examples) in part.errors.examples {
                merged[name, default: []] += examples.map { example in
                    var shifted = example
                    shifted.tS = ((example.tS + shiftS) * 1_000).rounded() / 1_000
                    return shifted
                }
            }
        }
        return merged.mapValues { Array($0.sorted(by: ErrorExample.precedes).prefix(ErrorExample.perClass)) }
    }

    /// Every part's outages on the merged run's clock, in order: each process saw its own, so
    /// one outage of the endpoint appears once per process that met it.
    static func mergeOutages(_ parts: [RunReport], startedAt: String) -> [OutageReport] {
        let origin = ReportTimestamp.date(startedAt)
        func shifted(_ seconds: Double, by shiftS: Double) -> Double { ((seconds + shiftS) * 1_000).rounded() / 1_000 }
        return parts.flatMap { part -> [OutageReport] in
            let shiftS = origin.flatMap { origin in ReportTimestamp.date(part.startedAt).map { $0.timeIntervalSince(origin) } } ?? 0
            return (part.outages ?? []).map { outage in
                var moved = outage
                moved.startS = shifted(outage.startS, by: shiftS)
                moved.endS = outage.endS.map { shifted($0, by: shiftS) }
                return moved
            }
        }.sorted { $0.startS < $1.startS }
    }

    private static func sum(_ dictionaries: [[String: Int]]) -> [String: Int] {
        dictionaries.reduce(into: [:]) { total, part in
            for (key, value) in part { total[key, default: 0] += value }
        }
    }
}

/// One report a merged report was made from (`merged_from` in report.json).
package struct MergedPart: Codable, Sendable, Hashable {
    enum CodingKeys: String, CodingKey {
        case report, segment
        case segmentCount = "segment_count"
        case startedAt = "started_at"
        case sessions
    }

    /// The file it was read from.
    package var report: String
    package var segment: Int?
    package var segmentCount: Int?
    package var startedAt: String
    package var sessions: Int
}
