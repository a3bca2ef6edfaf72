import WSClient
import WSCore

/// The client side of Deepgram Flux, conversational speech-to-text at `/v2/listen`
/// (docs/dialects.md): raw audio in ~80 ms binary frames, configuration in the URL query, and
/// `TurnInfo` messages back that say where the user's turn ends.
///
/// Ready is the server's `Connected`; the end of a user turn is `EndOfTurn`, timed from the
/// end of the caller's speech (`end_of_turn_ms`), with `EagerEndOfTurn` (`eager_end_of_turn_ms`)
/// and `TurnResumed` (`turns_resumed`) when the session sets `eager_eot_threshold`. The API key
/// travels as `Authorization: Token KEY`.
package struct DeepgramFluxClientDialect: ClientDialect {
    package let id = "deepgram-flux"
    package var typesRead: [String] { DeepgramFluxMessage.Name.typesRead }
    package let apiVersion = "Listen v2, Flux (/v2/listen; deepgram-sdk 7.16 models)"
    /// User audio format: PCM16 (`linear16`) 16 kHz by default; µ-law is sent as `mulaw`.
    package let inputFormat: AudioFormat
    /// Flux returns no audio; this is the input format, so durations stay meaningful.
    package var outputFormat: AudioFormat { inputFormat }
    package let readySignal = ReadySignal.event
    package let turnEndSignal = TurnEndSignal.event
    /// `Authorization: Token <API_KEY>`, as on `/v1/listen`.
    package let authentication = AuthenticationStyle.header(name: "Authorization", prefix: "Token ")
    /// Deepgram recommends ~80 ms chunks for Flux.
    package var defaultFrameMs: Int { 80 }
    /// `ForceEndTurn` ends the turn at once; its `EndOfTurn` says `trigger: manual`.
    package let reportsFinalizedResults = true
    /// Speech-to-text answers with transcripts, never audio: the end of turn is the answer.
    package var repliesWithAudio: Bool { false }
    /// Flux closes the socket after `CloseStream`, with no closing message.
    package var awaitsSessionEndOnHangUp: Bool { false }
    /// Whether the session asked for eager end-of-turn events (`eager_eot_threshold`).
    package let eagerEndOfTurn: Bool

    /// The standard codec, or one that streams another input format or asks for eager events.
    package init(inputFormat: AudioFormat = .pcm16(16_000), eagerEndOfTurn: Bool = false) {
        self.inputFormat = inputFormat
        self.eagerEndOfTurn = eagerEndOfTurn
    }

    /// Ready, the result latencies, the user transcripts and `end_of_turn_ms`; with the eager
    /// threshold set, `eager_end_of_turn_ms` too. Not `endpoint_ms`: Flux has no endpoint
    /// apart from its end of turn.
    package var measures: Set<MetricName> {
        var metrics = MetricName.core.union([
            .readyMs, .sttInterimLatencyMs, .sttFinalLatencyMs, .userTranscriptFirstPartialMs, .userTranscriptFinalMs,
            .endOfTurnMs,
        ])
        if eagerEndOfTurn { metrics.insert(.eagerEndOfTurnMs) }
        return metrics
    }

    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(sharedFrame: EncodedFrame(.binary(bytes)), byteCount: bytes.count)
    }

    /// Flux keeps no per-connection state on the client: every setting is in the URL.
    package func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec {
        DeepgramFluxClientCodec()
    }

    /// This dialect, measuring the eager end of turn when the session parameters or the URL
    /// set `eager_eot_threshold` (Flux sends `EagerEndOfTurn` only then).
    package func configured(parameters: [String: JSONValue], url: String) throws(InputError) -> any ClientDialect {
        let name = DeepgramFluxMessage.Threshold.eager
        let inURL = (try? WebSocketEndpoint(parsing: url))?.queryValue(named: name) != nil
        let inSession = !DeepgramListenQuery.queryValues(parameters[name] ?? .null).isEmpty
        return DeepgramFluxClientDialect(inputFormat: inputFormat, eagerEndOfTurn: inURL || inSession)
    }

    /// This dialect, measuring the eager end of turn as well when a `configure` step sets
    /// `eager_eot_threshold` (a `null` one, which Flux reads as "keep the current value", does not).
    package func reconfigured(midStream settings: [String: JSONValue]) -> any ClientDialect {
        let eager = settings[DeepgramFluxMessage.Threshold.eager].map { $0 != .null } ?? false
        return DeepgramFluxClientDialect(inputFormat: inputFormat, eagerEndOfTurn: eagerEndOfTurn || eager)
    }

    /// `base` with the model (`flux-general-en`) and the audio format (`encoding`,
    /// `sample_rate`) added where the URL has none; a session parameter of the same name
    /// replaces a default, and other session parameters (`eot_threshold`,
    /// `eager_eot_threshold`, `eot_timeout_ms`, `keyterm`…) become query items too, as on
    /// `/v1/listen` (`DeepgramListenQuery`).
    package func endpoint(for base: WebSocketEndpoint, parameters: [String: JSONValue]) -> WebSocketEndpoint {
        let defaults = [
            ("model", DeepgramFluxMessage.defaultModel), ("encoding", DeepgramMessage.encodingName(of: inputFormat)),
            ("sample_rate", String(inputFormat.sampleRateHz)),
        ]
        return DeepgramListenQuery.endpoint(for: base, parameters: parameters, defaults: defaults)
    }
}
