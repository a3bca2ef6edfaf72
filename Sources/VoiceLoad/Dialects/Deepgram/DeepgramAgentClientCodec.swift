import WSCore

/// The client side of one Deepgram Voice Agent connection (docs/dialects.md).
///
/// Binary frames are agent audio; JSON arrives in text frames only. Sends nothing on open:
/// `Welcome` is answered at once with this session's `Settings`. Never throws or traps:
/// unparseable text becomes `.malformed`, other message types `.unknown`.
struct DeepgramAgentClientCodec: ClientCodec {
    /// The user audio format, for a `Settings` built from a `.start` intent.
    let inputFormat: AudioFormat
    /// The agent audio format, to measure each binary frame.
    let outputFormat: AudioFormat
    /// The `Settings` message sent in reply to `Welcome`.
    let settingsText: String
    /// Where the agent is in a line that is not the answer (`DeepgramAside`).
    private(set) var aside = DeepgramAside.none

    /// Nothing: the client must wait for `Welcome`.
    func framesOnOpen() -> [WireFrame] { [] }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }

    /// Audio as a binary frame (none when empty), `.start` → `Settings` from its parameters,
    /// `.keepAlive` → `KeepAlive`, `.text` → `InjectUserMessage`, `.toolResult` →
    /// `FunctionCallResponse`; nothing for `.stop` (the agent API has no close message),
    /// `.interrupt` (barge-in is the server's VAD), `.commit` and `.markPlayed`.
    func frames(for intent: ClientIntent) -> [WireFrame] {
        typealias Name = DeepgramMessage.Name
        switch intent {
        case .audio(let bytes):
            return bytes.isEmpty ? [] : [.binary(bytes)]
        case .start(let parameters):
            return [
                .text(
                    DeepgramAgentSettings.text(
                        parameters: parameters,
                        inputFormat: inputFormat,
                        outputFormat: outputFormat
                    )
                )
            ]
        case .keepAlive:
            return [.text(DeepgramMessage.Literal.keepAlive)]
        case .text(let content):
            return [.text(DeepgramMessage.text(type: Name.injectUserMessage, ["content": .string(content)]))]
        case .toolResult(let callID, let name, let output):
            return [
                .text(
                    DeepgramMessage.text(
                        type: Name.functionCallResponse,
                        [
                            "id": JSONValue(callID), "name": JSONValue(name), "content": JSONValue(output),
                        ]
                    )
                )
            ]
        case .stop, .interrupt, .commit, .markPlayed, .playbackTruncated, .dtmf, .configure:
            return []
        }
    }

    /// The events of one frame (see `events(in:)`); `Welcome` also yields the `Settings` reply.
    /// The audio of an aside (a backchannel, a filler) is not the answer: none of it is agent
    /// audio to the caller's measures.
    mutating func receive(_ frame: WireFrame) -> DecodedFrame {
        let message: DeepgramMessage
        switch frame {
        case .binary(let bytes):
            guard !aside.ownsAudio else { return [] }
            aside = .none  // after an aside's end, audio is the answer's
            return bytes.isEmpty ? [] : [.agentAudio(AgentAudioChunk(audio: bytes, format: outputFormat))]
        case .text:
            switch DeepgramMessage.parse(frame) {
            case .success(let parsed): message = parsed
            case .failure(let error): return [.malformed(reason: error.reason)]
            }
        }
        let normalized = events(in: message)
        guard message.type == DeepgramMessage.Name.welcome else { return DecodedFrame(events: normalized) }
        return DecodedFrame(events: normalized, replies: [CodecReply(.text(settingsText), timing: .immediately)])
    }

    /// `Welcome` → `.sessionStarted(["request_id": …])`; `SettingsApplied` → `.sessionReady`;
    /// `UserStartedSpeaking` → `.userSpeechStarted`; `AgentStartedSpeaking` →
    /// `.agentSpeechStarted` plus `.serverLatency` for `total_latency`, `tts_latency` and
    /// `ttt_latency`; `AgentAudioDone` → `.agentSpeechEnded` + `.turnComplete`;
    /// `ConversationText` → final `.transcript`; `LatencyReport` → `.serverLatency` per
    /// number; `FunctionCallRequest` → `.toolCall` per function (`called` when the server runs
    /// it); `FunctionCallCancelled` → a `cancelled` `.toolCall` per function; `Error` → fatal
    /// `.error`, `Warning` → `.warning`; the informational messages (`AgentThinking`,
    /// `History`, `InjectionRefused`, the `…Updated` acknowledgements, the server's
    /// `FunctionCallResponse`) → nothing. During an aside, `AgentStartedSpeaking`,
    /// `AgentAudioDone` and the `LatencyReport` after it are the aside's: nothing.
    private mutating func events(in message: DeepgramMessage) -> [NormalizedEvent] {
        typealias Name = DeepgramMessage.Name
        if let asideEvents = aside.take(message) { return asideEvents }
        switch message.type {
        case Name.welcome:
            return [.sessionStarted(ids: message.string("request_id").map { ["request_id": $0] } ?? [:])]
        case Name.settingsApplied:
            return [.sessionReady]
        case Name.userStartedSpeaking:
            return [.userSpeechStarted]
        case Name.agentStartedSpeaking:
            let latencies = ["total_latency", "tts_latency", "ttt_latency"].compactMap { Self.serverLatency(message, $0) }
            return [.agentSpeechStarted(turnKey: nil)] + latencies
        case Name.agentAudioDone:
            return [.agentSpeechEnded(turnKey: nil), .turnComplete(turnKey: nil)]
        case Name.conversationText:
            guard let content = message.string("content") else {
                return [.malformed(reason: "ConversationText without a content string")]
            }
            let role = message.string("role") ?? "unknown"
            if role == DeepgramAside.assistantRole { aside = DeepgramAside(behavior: message.string(DeepgramAside.behaviorKey)) }
            return [.transcript(role: role, text: content, isFinal: true)]
        case Name.latencyReport:
            return message.members.keys.sorted().compactMap { Self.serverLatency(message, $0) }
        case Name.functionCallRequest:
            return Self.toolCalls(message)
        case Name.functionCallCancelled:
            return Self.cancelledCalls(message)
        case Name.error:
            return [.error(code: message.string("code"), message: Self.description(message), fatal: true)]
        case Name.warning:
            return [.warning(code: message.string("code"), message: Self.description(message))]
        case _ where Name.informational.contains(message.type):
            return []
        default:
            return [.unknown(type: message.type)]
        }
    }

    /// `server_<field>_ms` for a number `field` in seconds (to the microsecond, so `0.34`
    /// is exactly 340 ms); nil when the field is no number. A number outside
    /// 0…`DeepgramMessage.maxSeconds` is `.malformed` for a latency vload measures, and left
    /// out for any other field (a timestamp, a -1 placeholder: nothing vload reads).
    private static func serverLatency(_ message: DeepgramMessage, _ field: String) -> NormalizedEvent? {
        guard let seconds = message.number(field) else { return nil }
        let name = "server_\(field)_ms"
        guard (0...DeepgramMessage.maxSeconds).contains(seconds) else {
            return MetricName(rawValue: name) == nil ? nil : .malformed(reason: "\(message.type) \(field) of \(seconds) s is out of range")
        }
        return .serverLatency(name: name, valueUs: Int64((seconds * 1_000_000).rounded()))
    }

    /// One `.toolCall` per entry of `functions` (its `id` and `arguments`; status `requested`
    /// when the client must run it, `called` when `client_side` is false), or for the single
    /// function of the older shape (`function_name`, `function_call_id`, `input`).
    private static func toolCalls(_ message: DeepgramMessage) -> [NormalizedEvent] {
        if case .array(let functions)? = message.members["functions"] {
            return functions.map { function in
                guard case .object(let members) = function, case .string(let name)? = members["name"] else {
                    return .malformed(reason: "FunctionCallRequest function without a name")
                }
                let clientSide = members["client_side"] != .bool(false)
                return .toolCall(
                    name: name,
                    status: clientSide ? "requested" : "called",
                    id: string(members["id"]),
                    arguments: arguments(members["arguments"])
                )
            }
        }
        guard let name = message.string("function_name") else {
            return [.malformed(reason: "FunctionCallRequest without functions")]
        }
        return [
            .toolCall(
                name: name,
                status: "requested",
                id: message.string("function_call_id"),
                arguments: arguments(message.members["input"])
            )
        ]
    }

    /// One `.toolCall` with status `cancelled` per function the server withdrew.
    private static func cancelledCalls(_ message: DeepgramMessage) -> [NormalizedEvent] {
        guard case .array(let functions)? = message.members["functions"] else {
            return [.malformed(reason: "FunctionCallCancelled without functions")]
        }
        return functions.map { function in
            guard case .object(let members) = function, case .string(let id)? = members["id"] else {
                return .malformed(reason: "FunctionCallCancelled function without an id")
            }
            return .toolCall(name: string(members["name"]) ?? "", status: "cancelled", id: id)
        }
    }

    private static func description(_ message: DeepgramMessage) -> String {
        message.string("description") ?? message.string("message") ?? ""
    }

    private static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    /// Arguments as JSON text: a string as sent, any other value written compactly.
    private static func arguments(_ value: JSONValue?) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let value?: return JSONText.text(value)
        }
    }
}
