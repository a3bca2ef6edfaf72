import WSCore

/// The client side of one Deepgram Flux connection, `/v2/listen` (docs/dialects.md).
///
/// Out: binary audio, `ForceEndTurn` (commit) and `CloseStream` (stop). In: `Connected`,
/// `TurnInfo`, `ConfigureSuccess`, `ConfigureFailure`, `Warning` and `Error`, as JSON in text
/// frames (or UTF-8 in binary frames: Flux sends no audio). Never throws or traps: unparseable
/// frames become `.malformed`, other message types and `TurnInfo` events `.unknown`.
struct DeepgramFluxClientCodec: ClientCodec {
    typealias Name = DeepgramFluxMessage.Name
    typealias Event = DeepgramFluxMessage.Event

    /// No hello: the server's `Connected` comes first.
    func framesOnOpen() -> [WireFrame] { [] }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }

    /// Audio as a binary frame (none when empty), `.commit` → `ForceEndTurn`, `.configure` →
    /// `Configure` (see `configure(_:)`), `.stop` → `CloseStream`; nothing for the rest: Flux
    /// has no keep-alive.
    func frames(for intent: ClientIntent) -> [WireFrame] {
        switch intent {
        case .audio(let bytes): return bytes.isEmpty ? [] : [.binary(bytes)]
        case .commit: return [.text(DeepgramFluxMessage.Literal.forceEndTurn)]
        case .stop: return [.text(DeepgramFluxMessage.Literal.closeStream)]
        case .configure(let parameters): return [.text(Self.configure(parameters))]
        case .start, .keepAlive, .interrupt, .text, .toolResult, .markPlayed, .playbackTruncated, .dtmf: return []
        }
    }

    /// `Configure` with `parameters`: the end-of-turn thresholds (`eot_threshold`,
    /// `eager_eot_threshold`, `eot_timeout_ms`) go in its `thresholds` object, every other
    /// setting (`keyterms`, `language_hints`, `numerals`) beside `type`, as deepgram-sdk's
    /// `ListenV2Configure` has them.
    static func configure(_ parameters: [String: JSONValue]) -> String {
        var members: [String: JSONValue] = [:]
        var thresholds: [String: JSONValue] = [:]
        for (name, value) in parameters {
            if DeepgramFluxMessage.Threshold.all.contains(name) { thresholds[name] = value } else { members[name] = value }
        }
        if !thresholds.isEmpty { members["thresholds"] = .object(thresholds) }
        return DeepgramMessage.text(type: Name.configure, members)
    }

    func receive(_ frame: WireFrame) -> DecodedFrame {
        DecodedFrame(events: events(in: frame))
    }

    /// `Connected` → `.sessionReady`; `TurnInfo` by its event (see `turnEvents`);
    /// `ConfigureSuccess` → nothing; `ConfigureFailure` → non-fatal `.error`; `Warning` →
    /// `.warning`; `Error` → fatal `.error` (Flux closes the stream after it).
    func events(in frame: WireFrame) -> [NormalizedEvent] {
        let message: DeepgramMessage
        switch DeepgramMessage.parse(frame) {
        case .success(let parsed): message = parsed
        case .failure(let error): return [.malformed(reason: error.reason)]
        }
        switch message.type {
        case Name.connected: return [.sessionReady]
        case Name.turnInfo: return turnEvents(message)
        case Name.configureSuccess: return []
        case Name.configureFailure:
            let code = message.string("code") ?? Name.configureFailure
            return [.error(code: code, message: message.string("description") ?? "", fatal: false)]
        case Name.warning: return [.warning(code: message.string("code"), message: message.string("description") ?? "")]
        case Name.error:
            return [.error(code: message.string("code"), message: message.string("description") ?? "", fatal: true)]
        default: return [.unknown(type: message.type)]
        }
    }

    /// `StartOfTurn` → `.userSpeechStarted`, then as `Update`; `Update` → an interim
    /// `.speechResult` over the audio window (and a partial user transcript when it has
    /// text); `EagerEndOfTurn` and `TurnResumed` → their `.userTurn` signal; `EndOfTurn` → the
    /// final `.speechResult` (`from_finalize` when `ForceEndTurn` triggered it), the final
    /// user transcript, `.userSpeechStopped` and `.userTurn(.endOfTurn)`. An event Flux may add
    /// later is `.unknown` as `TurnInfo.<event>`. A window outside 0…`DeepgramMessage.maxSeconds`
    /// or ending before it starts makes the message malformed.
    private func turnEvents(_ message: DeepgramMessage) -> [NormalizedEvent] {
        guard let event = message.string("event") else { return [.malformed(reason: "TurnInfo has no string \"event\"")] }
        let span = 0...DeepgramMessage.maxSeconds
        let startS = message.number("audio_window_start") ?? 0
        let endS = message.number("audio_window_end") ?? startS
        guard span.contains(startS), span.contains(endS), endS >= startS else {
            return [.malformed(reason: "TurnInfo audio window \(startS)…\(endS) s is out of range")]
        }
        let text = message.string("transcript") ?? ""
        let isFinal = event == Event.endOfTurn
        let result = SpeechResult(
            text: text,
            isFinal: isFinal,
            speechFinal: false,
            startS: startS,
            durationS: endS - startS,
            fromFinalize: isFinal && message.string("trigger") == DeepgramFluxMessage.Trigger.manual
        )
        var events: [NormalizedEvent] = [.speechResult(result)]
        if !text.isEmpty { events.append(.transcript(role: "user", text: text, isFinal: isFinal)) }
        switch event {
        case Event.startOfTurn: return [.userSpeechStarted] + events
        case Event.update: return events
        case Event.eagerEndOfTurn: return [.userTurn(.eagerEndOfTurn)]
        case Event.turnResumed: return [.userTurn(.turnResumed)]
        case Event.endOfTurn: return events + [.userSpeechStopped, .userTurn(.endOfTurn)]
        default: return [.unknown(type: "\(Name.turnInfo).\(event)")]
        }
    }
}
