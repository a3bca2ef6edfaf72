import WSCore

/// The client side of one Deepgram speech-to-text connection (docs/dialects.md).
///
/// Out: binary audio, and the text control messages `KeepAlive`, `Finalize` (commit) and
/// `CloseStream` (stop). In: `Results`, `SpeechStarted`, `UtteranceEnd` and `Metadata`, as
/// JSON in text frames (or UTF-8 in binary frames: Deepgram sends no audio, so a binary frame
/// can only be JSON). Never throws or traps: unparseable frames become `.malformed`, other
/// message types `.unknown`.
struct DeepgramSTTClientCodec: ClientCodec {
    /// No hello: the session is ready on open and the first message is the server's.
    func framesOnOpen() -> [WireFrame] { [] }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }

    /// Audio as a binary frame (none when empty), `.keepAlive` → `KeepAlive`, `.commit` →
    /// `Finalize`, `.stop` → `CloseStream`; nothing for the intents STT has no message for.
    func frames(for intent: ClientIntent) -> [WireFrame] {
        switch intent {
        case .audio(let bytes): return bytes.isEmpty ? [] : [.binary(bytes)]
        case .keepAlive: return [.text(DeepgramMessage.Literal.keepAlive)]
        case .commit: return [.text(DeepgramMessage.Literal.finalize)]
        case .stop: return [.text(DeepgramMessage.Literal.closeStream)]
        case .start, .interrupt, .text, .toolResult, .markPlayed, .playbackTruncated, .dtmf, .configure: return []
        }
    }

    func receive(_ frame: WireFrame) -> DecodedFrame {
        DecodedFrame(events: events(in: frame))
    }

    /// `Results` → `.speechResult`, plus a final-or-interim user `.transcript` when it has
    /// text, plus `.userSpeechStopped` when `speech_final`; `SpeechStarted` →
    /// `.userSpeechStarted`; `UtteranceEnd` → `.utteranceEnd`; `Metadata` →
    /// `.sessionEnded(reason: "metadata")`; `Error` → fatal `.error`; `ConfigureFailure` →
    /// non-fatal `.error`; `ConfigureSuccess` → nothing.
    func events(in frame: WireFrame) -> [NormalizedEvent] {
        let message: DeepgramMessage
        switch DeepgramMessage.parse(frame) {
        case .success(let parsed): message = parsed
        case .failure(let error): return [.malformed(reason: error.reason)]
        }
        typealias Name = DeepgramMessage.Name
        switch message.type {
        case Name.results: return resultEvents(message)
        case Name.speechStarted: return [.userSpeechStarted]
        case Name.utteranceEnd: return [.utteranceEnd]
        case Name.metadata: return [.sessionEnded(reason: "metadata")]
        case Name.error:
            // Deepgram closes the stream after an error.
            return [.error(code: message.string("code"), message: message.string("description") ?? "", fatal: true)]
        case Name.configureFailure:
            return [
                .error(code: message.string("code") ?? Name.configureFailure, message: message.string("description") ?? "", fatal: false)
            ]
        case Name.configureSuccess: return []
        default: return [.unknown(type: message.type)]
        }
    }

    /// Missing flags count as false and missing positions as 0; a result without
    /// `channel.alternatives[0].transcript` has empty text (Deepgram sends those for silence).
    /// A position outside 0…`DeepgramMessage.maxSeconds` makes the result malformed.
    private func resultEvents(_ message: DeepgramMessage) -> [NormalizedEvent] {
        let span = 0...DeepgramMessage.maxSeconds
        for field in ["start", "duration"] {
            if let seconds = message.number(field), !span.contains(seconds) {
                return [.malformed(reason: "Results \(field) of \(seconds) s is out of range")]
            }
        }
        let result = SpeechResult(
            text: Self.transcript(of: message),
            isFinal: message.bool("is_final") ?? false,
            speechFinal: message.bool("speech_final") ?? false,
            startS: message.number("start") ?? 0,
            durationS: message.number("duration") ?? 0,
            fromFinalize: message.bool("from_finalize") ?? false
        )
        var events: [NormalizedEvent] = [.speechResult(result)]
        if !result.text.isEmpty {
            events.append(.transcript(role: "user", text: result.text, isFinal: result.isFinal))
        }
        if result.speechFinal { events.append(.userSpeechStopped) }
        return events
    }

    private static func transcript(of message: DeepgramMessage) -> String {
        guard case .object(let channel)? = message.members["channel"],
            case .array(let alternatives)? = channel["alternatives"],
            case .object(let best)? = alternatives.first,
            case .string(let text)? = best["transcript"]
        else { return "" }
        return text
    }
}
