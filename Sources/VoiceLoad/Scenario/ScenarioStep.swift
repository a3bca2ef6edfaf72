/// One step of a scenario.
package enum ScenarioStep: Sendable, Hashable {
    case connect(timeoutMs: Int)
    case wait(WaitStep)
    case say(SayStep)
    /// `silence` / `think`: the microphone streams paced silence for a while.
    case pause(PauseStep)
    case bargeIn(BargeInStep)
    /// `backchannel`: a short clip over the agent's answer, not meant to interrupt it.
    case backchannel(BackchannelStep)
    case toolReply(ToolReplyStep)
    /// `repeat`: the nested steps, `times` times over.
    case repeatSteps(times: Int, steps: [ScenarioStep])
    case hangup(timeoutMs: Int)
    /// `dtmf: "1234#"`: the caller presses these keys (Twilio `dtmf`), one every `intervalMs`.
    case dtmf(digits: String, intervalMs: Int)
    /// `finalize`: the client asks the server for its transcript now (Deepgram `Finalize`) and
    /// waits for the result it flushes (`finalize_ms`).
    case finalize(timeoutMs: Int, onTimeout: StepTimeoutPolicy)
    /// `configure: {eot_threshold: 0.8}`: the client sends new session settings mid-stream
    /// (Deepgram Flux `Configure`, AssemblyAI `UpdateConfiguration`) and goes on at once.
    case configure(parameters: [String: JSONValue])

    /// The step's name in reports (`timeout_wait_ready`).
    package var name: String {
        switch self {
        case .connect: return "connect"
        case .wait(let wait): return "wait_\(wait.target.name)"
        case .say: return "say"
        case .pause(let pause): return pause.isThink ? "think" : "silence"
        case .bargeIn: return "barge_in"
        case .backchannel: return "backchannel"
        case .toolReply: return "tool_reply"
        case .repeatSteps: return "repeat"
        case .hangup: return "hangup"
        case .dtmf: return "dtmf"
        case .finalize: return "finalize"
        case .configure: return "configure"
        }
    }

    /// The clip a step speaks: a `say`, a `barge_in` with speech, or a `backchannel`.
    package var spokenClip: SayStep? {
        switch self {
        case .say(let say): return say
        case .backchannel(let backchannel): return backchannel.clip
        case .bargeIn(let bargeIn):
            if case .speech(let say) = bargeIn.action { return say }
            return nil
        default: return nil
        }
    }

    /// `steps` with every `repeat` expanded once (enough to list what they use).
    package static func flattened(_ steps: [ScenarioStep]) -> [ScenarioStep] {
        steps.flatMap { step -> [ScenarioStep] in
            if case .repeatSteps(_, let nested) = step { return flattened(nested) }
            return [step]
        }
    }
}

/// What a step does when it times out.
package enum StepTimeoutPolicy: String, Sendable, Hashable {
    /// The session fails with `timeout_<step>` (the default).
    case fail
    /// The timeout is recorded (the turn censored) and the scenario goes on.
    case `continue`
}

/// A `wait` step.
package struct WaitStep: Sendable, Hashable {
    package var target: WaitTarget
    package var timeoutMs: Int
    package var onTimeout: StepTimeoutPolicy

    package init(_ target: WaitTarget, timeoutMs: Int, onTimeout: StepTimeoutPolicy = .fail) {
        self.target = target
        self.timeoutMs = timeoutMs
        self.onTimeout = onTimeout
    }
}

/// What a `wait` step waits for.
package enum WaitTarget: Sendable, Hashable {
    /// The session is ready for user audio.
    case ready
    /// The agent's greeting, if it speaks first: until the greeting turn has ended, or until
    /// `quiet_ms` after ready passed with no agent audio (an agent that does not greet).
    case greeting
    /// Agent audio: a turn under way, or the next one beginning.
    case agentAudio
    /// The agent's current or next turn has ended (its audio has played out).
    case agentTurnEnd
    /// No agent audio arrived and none was left to play for this long.
    case quiet(ms: Int)
    /// A transcript (of this role: `user`, `agent`) arrives.
    case transcript(role: String?)
    /// The agent calls a tool (of this name).
    case toolCall(name: String?)
    /// Any normalized event of this kind (docs/dialects.md) arrives.
    case event(NormalizedEvent.Kind)

    /// The scalar of `wait: NAME`.
    package var name: String {
        switch self {
        case .ready: return "ready"
        case .greeting: return "greeting"
        case .agentAudio: return "agent_audio"
        case .agentTurnEnd: return "agent_turn_end"
        case .quiet: return "quiet"
        case .transcript: return "transcript"
        case .toolCall: return "tool_call"
        case .event: return "event"
        }
    }

    static let names = ["ready", "greeting", "agent_audio", "agent_turn_end", "quiet", "transcript", "tool_call", "event"]
}

/// A `say` step: stream a WAV file, paced like a microphone.
package struct SayStep: Sendable, Hashable {
    /// Absolute path of the audio file.
    package var audioPath: String
    /// The turn's label in turns.csv and report.json.
    package var label: String?
    /// Overrides of the detected speech start and end inside the clip.
    package var speechStartMs: Int?
    package var speechEndMs: Int?

    /// Identifies the prepared audio of this step: the file and its speech-boundary overrides.
    package var audioKey: String {
        "\(audioPath)#\(speechStartMs.map(String.init) ?? "auto")#\(speechEndMs.map(String.init) ?? "auto")"
    }

    package init(audioPath: String, label: String? = nil, speechStartMs: Int? = nil, speechEndMs: Int? = nil) {
        self.audioPath = audioPath
        self.label = label
        self.speechStartMs = speechStartMs
        self.speechEndMs = speechEndMs
    }
}

/// A `silence` or `think` step: paced silence for `minMs`, or a duration drawn uniformly
/// from `minMs…maxMs`.
package struct PauseStep: Sendable, Hashable {
    package var minMs: Int
    package var maxMs: Int
    /// Written as `think` (the user thinking) rather than `silence`; the same on the wire.
    package var isThink: Bool

    package init(minMs: Int, maxMs: Int, isThink: Bool = false) {
        self.minMs = minMs
        self.maxMs = maxMs
        self.isThink = isThink
    }
}

/// A `barge_in` step: once `afterHeardMs` of the agent's current turn has played on the
/// client's playback cursor, talk over it (or send the dialect's interrupt command).
package struct BargeInStep: Sendable, Hashable {
    package enum Action: Sendable, Hashable {
        /// Start speaking this clip; `T_bi_start` is its speech start.
        case speech(SayStep)
        /// Send the dialect's interrupt message (Datagrid `interrupt`, OpenAI `response.cancel`).
        case command
    }

    package var action: Action
    package var afterHeardMs: Int
    /// The turn's label (for a command, the label of its interruption row).
    package var label: String?
    /// How long to wait for the agent to have spoken `afterHeardMs`.
    package var timeoutMs: Int
    /// A barge-in with no acknowledgement within this is a `missed_interruption`.
    package var intTimeoutMs: Int
    package var onTimeout: StepTimeoutPolicy

    package init(
        action: Action,
        afterHeardMs: Int,
        label: String? = nil,
        timeoutMs: Int = 30_000,
        intTimeoutMs: Int = 3_000,
        onTimeout: StepTimeoutPolicy = .fail
    ) {
        self.action = action
        self.afterHeardMs = afterHeardMs
        self.label = label
        self.timeoutMs = timeoutMs
        self.intTimeoutMs = intTimeoutMs
        self.onTimeout = onTimeout
    }
}

/// A `backchannel` step: once the caller has heard each of `afterHeardMs` of the agent's
/// current turn on its playback cursor, it speaks `clip` over it ("mm-hmm") and goes on
/// listening. Whether the agent stopped for it within `stopWindowMs` of the clip's speech start
/// is counted (`false_barge_in_rate`, docs/metrics.md); it starts no turn of its own.
package struct BackchannelStep: Sendable, Hashable {
    package static let defaultStopWindowMs = 1_500

    package var clip: SayStep
    /// Ascending: one backchannel at each point of the answer.
    package var afterHeardMs: [Int]
    package var stopWindowMs: Int
    /// How long to wait for the agent to have spoken each of `afterHeardMs`.
    package var timeoutMs: Int
    package var onTimeout: StepTimeoutPolicy

    package init(
        clip: SayStep,
        afterHeardMs: [Int],
        stopWindowMs: Int = defaultStopWindowMs,
        timeoutMs: Int = 30_000,
        onTimeout: StepTimeoutPolicy = .fail
    ) {
        self.clip = clip
        self.afterHeardMs = afterHeardMs
        self.stopWindowMs = stopWindowMs
        self.timeoutMs = timeoutMs
        self.onTimeout = onTimeout
    }
}

/// A `tool_reply` step: wait for the agent's next tool call and answer it with the canned
/// output for its name (`*` for any other name), after `delayMs` of client think time.
package struct ToolReplyStep: Sendable, Hashable {
    /// Output text by tool name (JSON text for structured outputs).
    package var outputs: [String: String]
    package var delayMs: Int
    package var timeoutMs: Int
    package var onTimeout: StepTimeoutPolicy

    package init(outputs: [String: String], delayMs: Int = 0, timeoutMs: Int = 30_000, onTimeout: StepTimeoutPolicy = .fail) {
        self.outputs = outputs
        self.delayMs = delayMs
        self.timeoutMs = timeoutMs
        self.onTimeout = onTimeout
    }

    /// The canned output for a call of `name`, nil when the scenario has none for it.
    package func output(for name: String) -> String? {
        outputs[name] ?? outputs["*"]
    }
}
