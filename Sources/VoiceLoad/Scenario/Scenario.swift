/// A validated scenario: what one virtual client does in one iteration.
public struct Scenario: Sendable, Hashable {
    public var name: String
    public var description: String?
    /// The YAML file the scenario came from.
    public var sourcePath: String
    /// Defaults the command line may override.
    public var dialect: String?
    public var url: String?
    public var frameMs: Int?
    /// Quiet gap in agent audio that separates (and, without an end-of-turn event, ends) agent turns.
    public var quietMs: Int
    /// The simulated playback's jitter buffer (docs/metrics.md): agent audio starts playing
    /// this long after its first chunk arrives, and again after each underrun.
    public var jitterBufferMs: Int
    /// `jitter_buffer_ms` when the scenario does not set it: a typical client prebuffer.
    public static let defaultJitterBufferMs = 60
    /// Seed of the random think times; each client and iteration draws its own stream.
    public var seed: UInt64
    /// Settings for the built-in agent simulator when the run has no `--url` (`simulator:`),
    /// as written: `reply_ms: 8000` → `["reply_ms": 8000]`.
    public var simulatorSettings: [String: JSONValue]
    /// The dialect's session parameters (Datagrid `start` payload).
    public var sessionParameters: [String: JSONValue]
    public var steps: [ScenarioStep]
    /// Pass/fail bounds on a run of the scenario (`thresholds:`), checked at load time.
    public var thresholds: [ThresholdExpression] = []
    /// A staged load (`stages:`), used unless the command line gives a load of its own.
    public var stages: StageList?
    /// Runs the scenario again on a fresh connection after a failure (`reconnect:`); nil: off.
    public var reconnect: ReconnectPolicy?
    /// `keepalive_ms:` the interval of the dialect's keep-alive message (0: none); nil: the
    /// dialect's own (Deepgram: 5000).
    public var keepAliveMs: Int?

    public init(
        name: String, description: String? = nil, sourcePath: String, dialect: String? = nil,
        url: String? = nil, frameMs: Int? = nil, quietMs: Int = 500, jitterBufferMs: Int = Scenario.defaultJitterBufferMs, seed: UInt64 = 1,
        sessionParameters: [String: JSONValue] = [:], simulatorSettings: [String: JSONValue] = [:], steps: [ScenarioStep]
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
    public var distinctSaySteps: [SayStep] {
        var seen = Set<String>()
        return ScenarioStep.flattened(steps).compactMap { step in
            guard let say = step.spokenClip, seen.insert(say.audioKey).inserted else { return nil }
            return say
        }
    }
}
