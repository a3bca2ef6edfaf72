import WSCore

/// The client side of one AssemblyAI Universal-Streaming v3 connection (docs/dialects.md).
///
/// Out: binary audio, `ForceEndpoint` (commit), `KeepAlive` and `Terminate` (stop). In:
/// `Begin`, `SpeechStarted`, `Turn`, `Termination`, `Error`, `Warning`, and informational
/// messages (`Heartbeat`, `Silence`…) that change nothing measured. Remembers the last turn
/// whose end it reported, so that the formatted copy of an ended turn (`turn_is_formatted`)
/// is its final transcript, not a second end. Never throws or traps.
struct AssemblyAIClientCodec: ClientCodec {
    typealias Name = AssemblyAIMessage.Name

    /// The `turn_order` of the last turn whose end went out as `.userTurn(.endOfTurn)`.
    private(set) var endedTurnOrder: Int64?

    func framesOnOpen() -> [WireFrame] { [] }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }

    /// Audio as a binary frame, `.commit` → `ForceEndpoint`, `.keepAlive` → `KeepAlive`,
    /// `.configure` → `UpdateConfiguration` (the settings beside `type`, as the SDK's model
    /// has them), `.stop` → `Terminate`; nothing for the rest.
    func frames(for intent: ClientIntent) -> [WireFrame] {
        switch intent {
        case .audio(let bytes): return bytes.isEmpty ? [] : [.binary(bytes)]
        case .commit: return [.text(AssemblyAIMessage.Literal.forceEndpoint)]
        case .keepAlive: return [.text(AssemblyAIMessage.Literal.keepAlive)]
        case .stop: return [.text(AssemblyAIMessage.Literal.terminate)]
        case .configure(let parameters): return [.text(DeepgramMessage.text(type: Name.updateConfiguration, parameters))]
        case .start, .interrupt, .text, .toolResult, .markPlayed, .playbackTruncated, .dtmf: return []
        }
    }

    mutating func receive(_ frame: WireFrame) -> DecodedFrame {
        DecodedFrame(events: events(in: frame))
    }

    /// `Begin` → `.sessionReady`; `SpeechStarted` → `.userSpeechStarted`; `Turn` (see
    /// `turnEvents`); `Termination` → `.sessionEnded`; `Error` → fatal `.error` (the service
    /// closes the session); `Warning` → `.warning`; the informational types → nothing.
    mutating func events(in frame: WireFrame) -> [NormalizedEvent] {
        let message: DeepgramMessage
        switch DeepgramMessage.parse(frame) {
        case .success(let parsed): message = parsed
        case .failure(let error): return [.malformed(reason: error.reason)]
        }
        switch message.type {
        case Name.begin: return [.sessionReady]
        case Name.speechStarted: return [.userSpeechStarted]
        case Name.turn: return turnEvents(message)
        case Name.termination: return [.sessionEnded(reason: "termination")]
        case Name.error:
            let code = message.number("error_code").map { String(Int64($0)) }
            return [.error(code: code, message: message.string("error") ?? "", fatal: true)]
        case Name.warning:
            let code = message.number("warning_code").map { String(Int64($0)) }
            return [.warning(code: code, message: message.string("warning") ?? "")]
        default:
            return Name.informational.contains(message.type) ? [] : [.unknown(type: message.type)]
        }
    }

    /// A `Turn` → a `.speechResult` over its words' span (milliseconds on the wire), interim
    /// until `end_of_turn`, and the user transcript; the first `Turn` of a `turn_order` with
    /// `end_of_turn` also → `.userSpeechStopped` and `.userTurn(.endOfTurn)`. Its formatted
    /// copy is a final transcript only. Word times outside 0…`DeepgramMessage.maxSeconds`
    /// make the message malformed.
    private mutating func turnEvents(_ message: DeepgramMessage) -> [NormalizedEvent] {
        let text = message.string("transcript") ?? ""
        let ended = message.bool("end_of_turn") ?? false
        let order = message.number("turn_order").map { Int64($0) }
        if ended, let order, order == endedTurnOrder {
            return text.isEmpty ? [] : [.transcript(role: "user", text: text, isFinal: true)]
        }
        var events: [NormalizedEvent] = []
        switch Self.wordSpanS(message) {
        case .failure(let error): return [.malformed(reason: error.reason)]
        case .success(let span?):
            let durationS = span.endS - span.startS
            events.append(
                .speechResult(SpeechResult(text: text, isFinal: ended, speechFinal: false, startS: span.startS, durationS: durationS))
            )
        case .success(nil): break
        }
        if !text.isEmpty { events.append(.transcript(role: "user", text: text, isFinal: ended)) }
        guard ended else { return events }
        endedTurnOrder = order
        return events + [.userSpeechStopped, .userTurn(.endOfTurn)]
    }

    /// Why a `Turn`'s words give no span.
    private struct SpanError: Error {
        var reason: String
    }

    /// The span of a `Turn`'s words in seconds (`start` of the first, `end` of the last, in ms
    /// on the wire); nil without words.
    private static func wordSpanS(_ message: DeepgramMessage) -> Result<(startS: Double, endS: Double)?, SpanError> {
        guard case .array(let words)? = message.members["words"], !words.isEmpty else { return .success(nil) }
        guard case .object(let first) = words[0], case .object(let last) = words[words.count - 1],
            let startMs = first["start"]?.doubleValue, let endMs = last["end"]?.doubleValue
        else { return .failure(SpanError(reason: "Turn words without start and end")) }
        let span = 0...DeepgramMessage.maxSeconds
        let (startS, endS) = (startMs / 1_000, endMs / 1_000)
        guard span.contains(startS), span.contains(endS), endS >= startS else {
            return .failure(SpanError(reason: "Turn words span \(startS)…\(endS) s is out of range"))
        }
        return .success((startS, endS))
    }
}
