/// A validated scenario: what one virtual client does in one iteration.
package struct Scenario: Sendable, Hashable {
    package var name: String
    package var description: String?
    /// The YAML file the scenario came from.
    package var sourcePath: String
    /// Defaults the command line may override.
    package var dialect: String?
    package var url: String?
    package var frameMs: Int?
    /// Quiet gap in agent audio that separates (and, without an end-of-turn event, ends) agent turns.
    package var quietMs: Int
    /// The simulated playback's jitter buffer (docs/metrics.md): agent audio starts playing
    /// this long after its first chunk arrives, and again after each underrun.
    package var jitterBufferMs: Int
    /// `jitter_buffer_ms` when the scenario does not set it: a typical client prebuffer.
    package static let defaultJitterBufferMs = 60
    /// Seed of the random think times; each client and iteration draws its own stream.
    package var seed: UInt64
    /// Settings for the built-in agent simulator when the run has no `--url` (`simulator:`),
    /// as written: `reply_ms: 8000` → `["reply_ms": 8000]`.
    package var simulatorSettings: [String: JSONValue]
    /// The dialect's session parameters (Datagrid `start` payload).
    package var sessionParameters: [String: JSONValue]
    package var steps: [ScenarioStep]
    /// Pass/fail bounds on a run of the scenario (`thresholds:`), checked at load time.
    package var thresholds: [ThresholdExpression] = []
    /// A staged load (`stages:`), used unless the command line gives a load of its own.
    package var stages: StageList?
    /// Runs the scenario again on a fresh connection after a failure (`reconnect:`); nil: off.
    package var reconnect: ReconnectPolicy?
    /// `keepalive_ms:` the interval of the dialect's keep-alive message (0: none); nil: the
    /// dialect's own (Deepgram: 5000).
    package var keepAliveMs: Int?
    /// How callers vary (`callers:`, docs/callers.md): noise, gain and speaking rate drawn per
    /// caller with `seed`; nil: every caller speaks the clips as they are.
    package var callers: CallerVariation?

    package init(
        name: String,
        description: String? = nil,
        sourcePath: String,
        dialect: String? = nil,
        url: String? = nil,
        frameMs: Int? = nil,
        quietMs: Int = 500,
        jitterBufferMs: Int = Scenario.defaultJitterBufferMs,
        seed: UInt64 = 1,
        sessionParameters: [String: JSONValue] = [:],
        simulatorSettings: [String: JSONValue] = [:],
        steps: [ScenarioStep]
    ) {
        self.name = name
        self.description = description
        self.sourcePath = sourcePath
        self.dialect = dialect
        self.url = url
        self.frameMs = frameMs
        self.quietMs = quietMs
        self.jitterBufferMs = jitterBufferMs
        self.seed = seed
        self.simulatorSettings = simulatorSettings
        self.sessionParameters = sessionParameters
        self.steps = steps
    }

    /// Every distinct clip the scenario speaks (`say` and `barge_in` steps, inside `repeat`
    /// too), by `audioKey`, in order of first use.
    package var distinctSaySteps: [SayStep] {
        var seen = Set<String>()
        return ScenarioStep.flattened(steps).compactMap { step in
            guard let say = step.spokenClip, seen.insert(say.audioKey).inserted else { return nil }
            return say
        }
    }
}
