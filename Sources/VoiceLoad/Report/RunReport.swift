/// The record of a run: the source of truth every other rendering (CSV, table) comes from.
/// Written as report.json; field names are snake_case, latency figures in milliseconds.
package struct RunReport: Codable, Sendable {
    enum CodingKeys: String, CodingKey {
        case tool, version, scenario
        case scenarioFile = "scenario_file"
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case durationS = "duration_s"
        case interrupted, config, sessions, turns
        case turnEnds = "turn_ends"
        case metrics, labels, interruptions
        case turnsResumed = "turns_resumed"
        case toolCalls = "tool_calls"
        case stepTimeouts = "step_timeouts"
        case thresholds, errors
        case unknownEvents = "unknown_events"
        case generator
        case timeline
        case warmup
        case interruptedBy = "interrupted_by"
        case reconnects
        case rtp
        case mergedFrom = "merged_from"
        case simulatorFaultsInjected = "simulator_faults_injected"
        case warnings
        case audioContinuity = "audio_continuity"
        case unknownEventTypes = "unknown_event_types"
        case connectionAttempts = "connection_attempts"
        case outages
        case callers
        case recordings
    }

    package var tool = "vload"
    package var version = VLoadVersion.current
    package var scenario: String
    package var scenarioFile: String
    package var startedAt: String
    package var endedAt: String
    package var durationS: Double
    /// Cut short by a signal: figures cover the run until then (a drain limit does not set it).
    package var interrupted = false
    /// The signal that interrupted the run.
    package var interruptedBy: InterruptSignal?
    package var config: Configuration
    package var sessions: Sessions
    /// Attempts to reach the endpoint (sessions' first attempts and reconnects); nil in a
    /// report from a version that did not count them.
    package var connectionAttempts: ConnectionAttemptCounts?
    /// Stretches in which every attempt to reach the endpoint failed; nil or empty when none.
    package var outages: [OutageReport]?
    package var turns: [String: Int]
    /// The turns whose answer ended, by what ended it (`event`, `quiet_gap`, `interruption`;
    /// turns.csv `turn_end_by`); nil in reports of older versions.
    package var turnEnds: [String: Int]?
    /// `TurnResumed` over the finished turns (Flux: eager ends of turn withdrawn, turns.csv
    /// `turns_resumed`); nil unless the run measures `eager_end_of_turn_ms`.
    package var turnsResumed: Int?
    package var metrics: [String: MetricReport]
    /// The turn metrics per turn label (`say` / `barge_in` `label:`), those with samples.
    package var labels: [String: [String: MetricReport]]
    package var interruptions: BargeInCounts
    /// How the replies played for the caller (stalls, `reply_rtf`); absent when no turn's
    /// reply had agent audio, and in reports of older versions.
    package var audioContinuity: AudioContinuityCounts?
    /// Set when the scenario has a reconnect policy.
    package var reconnects: ReconnectCounts?
    /// The agent's RTP streams, summed over the WebRTC calls; nil in a run without them.
    package var rtp: RTPReceiveCounts?
    /// The callers' ranges and draws (`callers:`, docs/callers.md); nil when callers do not vary.
    package var callers: CallerDraws?
    /// The calls recorded (`--record`, docs/recordings.md); nil when the run recorded none.
    package var recordings: RecordingSummary?
    package var toolCalls: ToolCalls
    /// Steps that timed out with `on_timeout: continue`, by step name.
    package var stepTimeouts: [String: Int]
    /// The thresholds the run was judged by (empty when none were given).
    package var thresholds: [ThresholdResult] = []
    package var errors: Errors
    package var unknownEvents: Int
    /// The unknown events by type (the first `UnknownEventType.maxTypes` types), most frequent
    /// first, each with one redacted example; absent when there were none.
    package var unknownEventTypes: [UnknownEventType]?
    /// Server warnings (Deepgram `Warning`) by code; absent when there were none. Warnings
    /// are not errors: they fail no session and count in no error rate.
    package var warnings: [String: Int]?
    package var generator: Generator
    /// The run per time bucket (one second, ten past the first hour).
    package var timeline: [TimelinePoint] = []
    /// Set when the run had a warm-up: what it left out.
    package var warmup: WarmupReport?
    /// Set on a report `vload merge` made: the reports it combined.
    package var mergedFrom: [MergedPart]?
    /// Set when the run's built-in simulator injected faults: how many of each it performed
    /// (`close_1011`, `stall`, …; 0 for a planned fault that never struck).
    package var simulatorFaultsInjected: [String: Int]?

    package struct Configuration: Codable, Sendable {
        enum CodingKeys: String, CodingKey {
            case clients
            case rampUpS = "ramp_up_s"
            case iterations
            case durationS = "duration_s"
            case url, dialect
            case frameMs = "frame_ms"
            case quietMs = "quiet_ms"
            case simulator
            case metricsMeasured = "metrics_measured"
            case load
            case drainMs = "drain_ms"
            case maxLagMs = "max_lag_ms"
            case tlsInsecure = "tls_insecure"
        }

        package var clients: Int
        package var rampUpS: Double
        package var iterations: Int?
        package var durationS: Double?
        /// The endpoint, with secrets in the query replaced by REDACTED.
        package var url: String
        package var dialect: String
        package var frameMs: Int
        package var quietMs: Int
        /// Set when the run used the built-in agent simulator.
        package var simulator: [String: String]?
        /// The metrics the dialect can measure; any other metric is absent by nature ("n/a").
        package var metricsMeasured: [String]
        /// How sessions were started (absent in reports of older versions).
        package var load: LoadDescription?
        /// A time-bounded run: how long sessions still open at its end were given before they
        /// were wound down.
        package var drainMs: Int?
        /// The validity bound the run was held to: the p99 of the generator's send lag, of its
        /// receive lag and of its built-in simulator's reply lateness above which the run is
        /// invalid (`--max-lag-ms`, `RunReport.defaultMaxLagMs` by default). Absent in reports of
        /// earlier versions, which held the send lag to one frame.
        package var maxLagMs: Double?
        /// True when the server's TLS certificate was not verified (`--insecure`); absent otherwise.
        package var tlsInsecure: Bool?
    }

    package struct Sessions: Codable, Sendable {
        enum CodingKeys: String, CodingKey {
            case started, completed, failed, interrupted, dropped
            case droppedByReason = "dropped_by_reason"
        }

        package var started: Int
        package var completed: Int
        package var failed: Int
        /// Wound down before their scenario ended (absent in reports of older versions).
        package var interrupted: Int? = nil
        /// Scheduled starts the open model did not make (absent in reports of older versions).
        package var dropped: Int?
        package var droppedByReason: [String: Int]?
    }

    /// Every session the load model scheduled: started (warm-up included) or dropped.
    package var scheduledSessions: Int {
        sessions.started + (warmup?.excludedSessions ?? 0) + (sessions.dropped ?? 0)
    }

    package struct ToolCalls: Codable, Sendable {
        /// Tool calls the agent made.
        package var calls: Int
        /// Results vload sent back (`tool_reply` steps).
        package var results: Int
    }

    /// Errors by class and category, with the first few of each class (redacted).
    package struct Errors: Codable, Sendable {
        enum CodingKeys: String, CodingKey {
            case total
            case byClass = "by_class"
            case byCategory = "by_category"
            case examples
        }

        package var total: Int
        package var byClass: [String: Int]
        /// The first `ErrorExample.perClass` occurrences of each class, earliest first.
        package var examples: [String: [ErrorExample]]
        /// Counts per `ErrorCategory` (`connect`, `upgrade`, `timeout`, …): derived from the
        /// class names, written to report.json for its readers.
        package var byCategory: [String: Int] { Self.categories(of: byClass) }

        package init(byClass: [String: Int], examples: [String: [ErrorExample]]) {
            total = byClass.values.reduce(0, +)
            self.byClass = byClass
            self.examples = examples
        }

        /// Reports of older versions have no examples.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            total = try container.decode(Int.self, forKey: .total)
            byClass = try container.decode([String: Int].self, forKey: .byClass)
            examples = try container.decodeIfPresent([String: [ErrorExample]].self, forKey: .examples) ?? [:]
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(total, forKey: .total)
            try container.encode(byClass, forKey: .byClass)
            try container.encode(byCategory, forKey: .byCategory)
            try container.encode(examples, forKey: .examples)
        }

        /// Counts per category of counts per class (classes of no known category left out).
        package static func categories(of byClass: [String: Int]) -> [String: Int] {
            byClass.reduce(into: [:]) { total, entry in
                guard let category = ErrorCategory(className: entry.key) else { return }
                total[category.rawValue, default: 0] += entry.value
            }
        }

        /// The classes grouped by category, categories in `ErrorCategory` order (unknown names
        /// last, as `other`), classes by name.
        package var grouped: [(category: String, count: Int, classes: [(name: String, count: Int)])] {
            var groups: [String: [(name: String, count: Int)]] = [:]
            for (name, count) in byClass {
                groups[ErrorCategory(className: name)?.rawValue ?? "other", default: []].append((name, count))
            }
            let order = ErrorCategory.allCases.map(\.rawValue) + ["other"]
            return order.compactMap { category in
                guard let classes = groups[category] else { return nil }
                return (category, classes.map(\.count).reduce(0, +), classes.sorted { $0.name < $1.name })
            }
        }
    }

    package struct Generator: Codable, Sendable {
        enum CodingKeys: String, CodingKey {
            case framesSent = "frames_sent"
            case sendLagMs = "send_lag_ms"
            case receiveLagMs = "receive_lag_ms"
            case startLagMs = "start_lag_ms"
            case simulatorReplyLateMs = "simulator_reply_late_ms"
            case cpuSeconds = "cpu_seconds"
            case cpuPercentOfOneCore = "cpu_percent_of_one_core"
            case cores, healthy, problems
        }

        package var framesSent: Int
        package var sendLagMs: MetricReport
        /// How late the generator's event loops read what arrived (its probe, every loop, after
        /// the warm-up): every received frame's timestamp is late by as much. Absent in reports
        /// of older versions.
        package var receiveLagMs: MetricReport?
        /// How late sessions began against the load model's schedule.
        package var startLagMs: MetricReport?
        /// With the built-in simulator in this process: how late its replies started (from
        /// the end of the user's speech plus the drawn latency to its timer), warm-up included.
        package var simulatorReplyLateMs: MetricReport?
        package var cpuSeconds: Double
        /// CPU time per second of run, in percent of one core (the in-process simulator included).
        package var cpuPercentOfOneCore: Double
        package var cores: Int
        /// Whether the generator kept up; when false the figures are not to be trusted.
        package var healthy: Bool
        package var problems: [String]
    }
}
