import WSCore

/// The server side of one Deepgram Flux connection (docs/dialects.md).
///
/// In: binary audio, `Configure` (→ `.configure`, answered with `ConfigureSuccess`), `ForceEndTurn` (→
/// `.commit`) and `CloseStream` (→ `.stop`). Out: `Connected` when ready; `TurnInfo`
/// `StartOfTurn` when the user starts speaking, `Update` for each interim result,
/// `EagerEndOfTurn` when the speech stops (only with an eager threshold set), `TurnResumed`
/// when the user goes on before the turn's final end, and `EndOfTurn`
/// for the final result (`trigger: manual` when `ForceEndTurn` flushed it); `Error`. Every
/// message carries the request id and the next `sequence_id`.
struct DeepgramFluxServerCodec: ServerCodec {
    typealias Name = DeepgramFluxMessage.Name
    typealias Event = DeepgramFluxMessage.Event

    /// `end_of_turn_confidence` of each event: the simulator's figures, above Flux's default
    /// thresholds (`eot_threshold` 0.7, an eager one at most 0.9 … 0.3) where the event is an end.
    static let endOfTurnConfidence = 0.95
    static let eagerConfidence = 0.6
    static let ongoingConfidence = 0.05
    /// Each word's confidence.
    static let wordConfidence = 0.99

    /// `EagerEndOfTurn` is sent: the query or a `Configure` set `eager_eot_threshold`.
    private(set) var sendsEagerEndOfTurn: Bool
    /// An eager end of turn is withdrawn when the user goes on (`TurnResumed`), as Flux does.
    var withdrawsEndOfTurnOnResume: Bool { sendsEagerEndOfTurn }
    /// `request_id` in every message (the session id the simulator opens with).
    private(set) var requestID = "vload-simulator"
    /// The `sequence_id` of the next message.
    private(set) var nextSequenceID = 0
    /// The `turn_index` of the turn under way.
    private(set) var turnIndex = 0
    /// Where the turn under way started in the audio, and its latest transcript.
    private var turnStartS = 0.0
    private var transcript = ""
    /// `ConfigureSuccess` answers not yet taken.
    private var acknowledgements: [WireFrame] = []

    /// A codec for the upgrade request target `target` (`/v2/listen?model=flux-general-en&…`).
    init(target: String) {
        sendsEagerEndOfTurn = DeepgramFluxServerCodec.hasQueryValue(DeepgramFluxMessage.Threshold.eager, inTarget: target)
    }

    static func hasQueryValue(_ name: String, inTarget target: String) -> Bool {
        guard let question = target.firstIndex(of: "?") else { return false }
        return URLQuery.value(of: name, in: String(target[target.index(after: question)...])) != nil
    }

    mutating func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        if case .binary(let bytes) = frame { return bytes.isEmpty ? [] : [.audio(bytes)] }
        let message = try DeepgramMessage.received(frame)
        switch message.type {
        case Name.forceEndTurn: return [.commit]
        case Name.closeStream: return [.stop]
        case Name.configure:
            configure(message)
            // The intent a client codec's `.configure` became: its thresholds beside the rest.
            var parameters = message.members.filter { $0.key != "type" && $0.key != "thresholds" }
            if case .object(let thresholds)? = message.members["thresholds"] { parameters.merge(thresholds) { own, _ in own } }
            return [.configure(parameters: parameters)]
        default: throw .unknownType(message.type)
        }
    }

    /// Takes the thresholds a `Configure` sets (an eager one turns eager events on) and answers
    /// with `ConfigureSuccess`, which echoes them.
    private mutating func configure(_ message: DeepgramMessage) {
        var thresholds: [String: JSONValue] = [:]
        if case .object(let given)? = message.members["thresholds"] {
            for name in DeepgramFluxMessage.Threshold.all { thresholds[name] = given[name] }
        }
        if let eager = thresholds[DeepgramFluxMessage.Threshold.eager], eager != .null { sendsEagerEndOfTurn = true }
        let keyterms = message.members["keyterms"] ?? .array([])
        acknowledgements.append(serverMessage(Name.configureSuccess, ["thresholds": .object(thresholds), "keyterms": keyterms]))
    }

    mutating func takeAcknowledgements() -> [WireFrame] {
        defer { acknowledgements = [] }
        return acknowledgements
    }

    mutating func frames(for output: AgentOutput) -> [WireFrame] {
        switch output {
        case .connectionOpened(let sessionID):
            requestID = sessionID
            return []
        case .ready:
            return [serverMessage(Name.connected)]
        case .userSpeechStarted(let audioMs):
            turnStartS = Double(audioMs) / 1_000
            transcript = ""
            return [turnInfo(Event.startOfTurn, endS: turnStartS, confidence: Self.ongoingConfidence)]
        case .speechResult(let result):
            turnStartS = result.startS
            transcript = result.text
            let endS = result.startS + result.durationS
            guard result.isFinal else { return [turnInfo(Event.update, endS: endS, confidence: Self.ongoingConfidence)] }
            let trigger = result.fromFinalize ? DeepgramFluxMessage.Trigger.manual : DeepgramFluxMessage.Trigger.model
            let frame = turnInfo(Event.endOfTurn, endS: endS, confidence: Self.endOfTurnConfidence, trigger: trigger)
            turnIndex += 1
            return [frame]
        case .userTurnResumed(let audioMs):
            // The eager end is withdrawn; the turn (its index, start and transcript) goes on.
            return [turnInfo(Event.turnResumed, endS: max(turnStartS, Double(audioMs) / 1_000), confidence: Self.ongoingConfidence)]
        case .userSpeechStopped(let audioMs):
            guard sendsEagerEndOfTurn else { return [] }
            return [turnInfo(Event.eagerEndOfTurn, endS: max(turnStartS, Double(audioMs) / 1_000), confidence: Self.eagerConfidence)]
        case .error(let code, let text):
            return [serverMessage(Name.error, ["code": .string(code ?? "INTERNAL_SERVER_ERROR"), "description": .string(text)])]
        case .sessionStarted, .utteranceEnd, .agentTurnStarted, .audio, .agentAudioDone, .turnComplete, .interrupted,
            .responseCancelled, .toolCall, .transcript, .ended:
            return []
        }
    }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }

    /// A `TurnInfo` of `event` for the turn under way, its window from the turn's start to
    /// `endS`, with its transcript's words spread evenly over the window.
    private mutating func turnInfo(_ event: String, endS: Double, confidence: Double, trigger: String? = nil) -> WireFrame {
        let startS = DeepgramMessage.seconds(turnStartS)
        let windowEndS = DeepgramMessage.seconds(endS)
        let words = transcript.split(whereSeparator: \.isWhitespace)
        let shareS = (windowEndS - startS) / Double(max(1, words.count))
        let wordObjects: [JSONValue] = words.enumerated().map { index, word in
            .object([
                "word": .string(String(word)), "confidence": .number(Self.wordConfidence),
                "start": .number(DeepgramMessage.seconds(startS + Double(index) * shareS)),
                "end": .number(DeepgramMessage.seconds(startS + Double(index + 1) * shareS)),
            ])
        }
        var members: [String: JSONValue] = [
            "event": .string(event), "turn_index": .integer(Int64(turnIndex)), "audio_window_start": .number(startS),
            "audio_window_end": .number(windowEndS), "transcript": .string(transcript), "words": .array(wordObjects),
            "end_of_turn_confidence": .number(confidence),
        ]
        if let trigger { members["trigger"] = .string(trigger) }
        return serverMessage(Name.turnInfo, members)
    }

    /// A server message of `type` with `members`, the request id and the next sequence id.
    private mutating func serverMessage(_ type: String, _ members: [String: JSONValue] = [:]) -> WireFrame {
        var object = members
        object["request_id"] = .string(requestID)
        object["sequence_id"] = .integer(Int64(nextSequenceID))
        nextSequenceID += 1
        return .text(DeepgramMessage.text(type: type, object))
    }
}
