import WSCore

/// The server side of one Deepgram Voice Agent connection (docs/dialects.md).
///
/// In: binary audio, `Settings` (the start intent, with the whole object as parameters),
/// `KeepAlive`, `InjectUserMessage` and `FunctionCallResponse`, and the mid-session updates
/// (`UpdateThink`, `UpdateListen`, `UpdatePrompt`, `UpdateSpeak`), each acknowledged at once
/// (`ThinkUpdated`, …) as deepgram-sdk 7.16's models pair them. Out: binary audio and the
/// JSON events of the simulated agent. Remembers the latency of the turn in progress, which
/// `AgentStartedSpeaking` announces and the turn's `LatencyReport` repeats.
struct DeepgramAgentServerCodec: ServerCodec {
    /// The share of a turn's latency reported as think (LLM) time; the rest is speech synthesis.
    static let thinkShare = 0.6

    /// The turn whose `AgentStartedSpeaking` was sent last, and its latency.
    private(set) var currentTurn: (key: String, latencyMs: Int)?
    /// Function calls requested so far, to name the calls that come without an id.
    private var callCount = 0
    /// Acknowledgements of updates received, not yet sent.
    private var acknowledgements: [WireFrame] = []

    /// Each mid-session update, the object member it must carry, and its acknowledgement.
    static let updates: [String: (member: String, acknowledgement: String)] = [
        "UpdateThink": ("think", "ThinkUpdated"), "UpdateListen": ("listen", "ListenUpdated"),
        "UpdatePrompt": ("prompt", DeepgramMessage.Name.promptUpdated), "UpdateSpeak": ("speak", DeepgramMessage.Name.speakUpdated),
    ]

    /// Binary frames are audio (an empty one carries no intent); text frames are JSON. An update
    /// carries no intent: the agent goes on as it was, and its acknowledgement waits in
    /// `takeAcknowledgements()`. Throws `.unknownType` for another message type
    /// (`InjectAgentMessage`…: the simulator does not act on them) and `.malformed` for text
    /// that is not such a message (an update without its object).
    mutating func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        if case .binary(let bytes) = frame { return bytes.isEmpty ? [] : [.audio(bytes)] }
        let message = try DeepgramMessage.received(frame)
        typealias Name = DeepgramMessage.Name
        switch message.type {
        case Name.settings:
            return [.start(parameters: message.members)]
        case Name.keepAlive:
            return [.keepAlive]
        case Name.injectUserMessage:
            guard let content = message.string("content") else { throw .malformed("InjectUserMessage without content") }
            return [.text(content)]
        case Name.functionCallResponse:
            guard let id = message.string("id"), let content = message.string("content") else {
                throw .malformed("FunctionCallResponse without id or content")
            }
            return [.toolResult(callID: id, name: message.string("name") ?? "", output: content)]
        default:
            guard let update = Self.updates[message.type] else { throw .unknownType(message.type) }
            // UpdatePrompt's prompt is a string, UpdateListen's listen an object, UpdateThink's
            // think and UpdateSpeak's speak an object or a list of them (fallback providers).
            switch message.members[update.member] {
            case .object?, .array?, .string?: break
            default: throw .malformed("\(message.type) without \(update.member)")
            }
            acknowledgements.append(.text(DeepgramMessage.text(type: update.acknowledgement)))
            return []
        }
    }

    mutating func takeAcknowledgements() -> [WireFrame] {
        defer { acknowledgements = [] }
        return acknowledgements
    }

    /// `.connectionOpened` → `Welcome`, `.ready` → `SettingsApplied`, `.userSpeechStarted` →
    /// `UserStartedSpeaking`, `.agentTurnStarted` → `AgentStartedSpeaking` with the latency
    /// in seconds (split into think and speech time), audio → a binary frame,
    /// `.agentAudioDone` → `AgentAudioDone`, `.turnComplete` → `LatencyReport` of that turn,
    /// a final transcript line → `ConversationText` (`agent` is spelled `assistant`),
    /// `.toolCall` → `FunctionCallRequest` with one `client_side` function (its id, else
    /// `fc_N`; its arguments, else `{}`), `.error` → `Error` (its code, else `SIMULATED_ERROR`); nothing for the rest.
    mutating func frames(for output: AgentOutput) -> [WireFrame] {
        typealias Name = DeepgramMessage.Name
        switch output {
        case .connectionOpened(let sessionID):
            return [.text(DeepgramMessage.text(type: Name.welcome, ["request_id": .string(sessionID)]))]
        case .ready:
            return [.text(DeepgramMessage.text(type: Name.settingsApplied))]
        case .userSpeechStarted:
            return [.text(DeepgramMessage.text(type: Name.userStartedSpeaking))]
        case .agentTurnStarted(let turnKey, let latencyMs):
            currentTurn = (turnKey, latencyMs)
            let split = Self.split(latencyMs: latencyMs)
            return [
                .text(
                    DeepgramMessage.text(
                        type: Name.agentStartedSpeaking,
                        [
                            "total_latency": JSONValue(split.totalS), "tts_latency": JSONValue(split.ttsS),
                            "ttt_latency": JSONValue(split.tttS),
                        ]
                    )
                )
            ]
        case .audio(let bytes):
            return bytes.isEmpty ? [] : [.binary(bytes)]
        case .agentAudioDone:
            return [.text(DeepgramMessage.text(type: Name.agentAudioDone))]
        case .turnComplete(let turnKey):
            guard let currentTurn, currentTurn.key == turnKey else { return [] }
            self.currentTurn = nil
            let split = Self.split(latencyMs: currentTurn.latencyMs)
            return [
                .text(
                    DeepgramMessage.text(
                        type: Name.latencyReport,
                        [
                            "total_latency": JSONValue(split.totalS), "tts_latency": JSONValue(split.ttsS),
                        ]
                    )
                )
            ]
        case .transcript(let line):
            guard line.isFinal else { return [] }
            let role = line.role == "agent" ? "assistant" : line.role
            return [.text(DeepgramMessage.text(type: Name.conversationText, ["role": .string(role), "content": .string(line.text)]))]
        case .error(let code, let message):
            return [
                .text(
                    DeepgramMessage.text(type: Name.error, ["description": .string(message), "code": .string(code ?? "SIMULATED_ERROR")])
                )
            ]
        case .toolCall(let name, _, let id, let arguments):
            callCount += 1
            let function: [String: JSONValue] = [
                "id": .string(id ?? "fc_\(callCount)"), "name": .string(name), "arguments": .string(arguments ?? "{}"), "client_side": true,
            ]
            return [.text(DeepgramMessage.text(type: Name.functionCallRequest, ["functions": [.object(function)]]))]
        case .sessionStarted, .userTurnResumed, .userSpeechStopped, .interrupted, .responseCancelled, .speechResult,
            .utteranceEnd, .ended:
            return []
        }
    }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }

    /// A turn latency in seconds, split into think (`ttt`, `thinkShare` of it, whole
    /// milliseconds) and speech synthesis (`tts`, the rest), so the parts add up to the total.
    static func split(latencyMs: Int) -> (totalS: Double, tttS: Double, ttsS: Double) {
        let tttMs = (Double(latencyMs) * thinkShare).rounded()
        let ttsMs = Double(latencyMs) - tttMs
        return (Double(latencyMs) / 1_000, tttMs / 1_000, ttsMs / 1_000)
    }
}
