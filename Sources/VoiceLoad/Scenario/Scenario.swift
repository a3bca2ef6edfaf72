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
    /// The dialect's session parameters (Datagrid `start` payload).
    public var sessionParameters: [String: JSONValue]
    public var steps: [ScenarioStep]

    public init(
        name: String, description: String? = nil, sourcePath: String, dialect: String? = nil,
        url: String? = nil, frameMs: Int? = nil, quietMs: Int = 500,
        sessionParameters: [String: JSONValue] = [:], steps: [ScenarioStep]
    ) {
        self.name = name
        self.description = description
        self.sourcePath = sourcePath
        self.dialect = dialect
        self.url = url
        self.frameMs = frameMs
        self.quietMs = quietMs
        self.sessionParameters = sessionParameters
        self.steps = steps
    }

    /// Every distinct `say` of the scenario (by `audioKey`), in order of first use.
    public var distinctSaySteps: [SayStep] {
        var seen = Set<String>()
        return steps.compactMap { step in
            guard case .say(let say) = step, seen.insert(say.audioKey).inserted else { return nil }
            return say
        }
    }
}

/// One step of a scenario.
public enum ScenarioStep: Sendable, Hashable {
    case connect(timeoutMs: Int)
    case wait(WaitTarget, timeoutMs: Int)
    case say(SayStep)
    case hangup(timeoutMs: Int)

    /// The step's name in reports (`timeout_wait_ready`).
    public var name: String {
        switch self {
        case .connect: return "connect"
        case .wait(let target, _): return "wait_\(target.rawValue)"
        case .say: return "say"
        case .hangup: return "hangup"
        }
    }
}

/// What a `wait` step waits for.
public enum WaitTarget: String, Sendable, Hashable, CaseIterable {
    /// The session is ready for user audio.
    case ready
    /// The agent's greeting, if it speaks first: until the greeting turn has ended, or until
    /// `quiet_ms` after ready passed with no agent audio (an agent that does not greet).
    case greeting
    /// The agent's current or next turn has ended (its audio has played out).
    case agentTurnEnd = "agent_turn_end"
}

/// A `say` step: stream a WAV file, paced like a microphone.
public struct SayStep: Sendable, Hashable {
    /// Absolute path of the audio file.
    public var audioPath: String
    /// The turn's label in turns.csv and report.json.
    public var label: String?
    /// Overrides of the detected speech start and end inside the clip.
    public var speechStartMs: Int?
    public var speechEndMs: Int?

    /// Identifies the prepared audio of this step: the file and its speech-boundary overrides.
    public var audioKey: String {
        "\(audioPath)#\(speechStartMs.map(String.init) ?? "auto")#\(speechEndMs.map(String.init) ?? "auto")"
    }

    public init(audioPath: String, label: String? = nil, speechStartMs: Int? = nil, speechEndMs: Int? = nil) {
        self.audioPath = audioPath
        self.label = label
        self.speechStartMs = speechStartMs
        self.speechEndMs = speechEndMs
    }
}
