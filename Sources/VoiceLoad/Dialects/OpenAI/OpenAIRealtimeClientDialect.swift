import Foundation
import WSClient
import WSCore

/// The client side of the OpenAI Realtime API over WebSocket (docs/dialects.md), GA protocol
/// with the beta event names accepted as aliases: JSON events with a `type`, base64 audio,
/// readiness on `session.updated` (vload sends a GA `session.update` on open, 24 kHz PCM both
/// ways unless the session says otherwise; an `error` before `session.updated` is
/// `ready_rejected`: docs/metrics.md, "Ready"), and the end of a turn on `response.done`.
///
/// A pure codec factory: the codecs accept JSON in text and binary frames and never throw or
/// trap on what the server sends; unparseable frames become `.malformed`, unknown types
/// `.unknown`.
package struct OpenAIRealtimeClientDialect: ClientDialect {
    /// OpenAI itself, or Azure Voice Live (`azure-voice-live`): the same events, another
    /// session object, key header and query.
    package let profile: OpenAIRealtimeProfile
    package var id: String { profile.dialectID }
    package var apiVersion: String { profile.apiVersion }
    /// User audio format: PCM16 24 kHz by default (configurable for compatible servers).
    package let inputFormat: AudioFormat
    /// Agent audio format: PCM16 24 kHz by default.
    package let outputFormat: AudioFormat
    package let readySignal = ReadySignal.event
    package var typesRead: [String] {
        profile == .azureVoiceLive ? OpenAIRealtimeEventName.azureTypesRead : OpenAIRealtimeEventName.serverTypesRead
    }
    package let turnEndSignal = TurnEndSignal.event
    /// `Authorization: Bearer KEY` (OpenAI), `api-key: KEY` (Azure).
    package var authentication: AuthenticationStyle { profile.authentication }
    /// Whether the session turns server turn detection off (`turn_detection: null`): the
    /// client commits each utterance, and first audio is also timed from the commit.
    package let manualTurns: Bool
    /// Also the user transcript latencies, from input-audio transcription, and with
    /// manual turns `first_audio_from_commit_ms`.
    package var measures: Set<MetricName> {
        MetricName.core.union([.startedMs, .readyMs, .userTranscriptFirstPartialMs, .userTranscriptFinalMs])
            .union(MetricName.audioReply).union(manualTurns ? [.firstAudioFromCommitMs] : [])
    }
    /// A barge-in's response ends in `response.done` with status `cancelled` (`int_cancel_ms`).
    package let cancelsResponses = true
    /// The model asked for in the URL when neither the URL nor the scenario names one.
    package static let defaultModel = "gpt-realtime"

    /// The standard dialect (PCM16 at `sampleRateHz` both ways; Voice Live answers at 24 kHz
    /// whatever the input rate), or one with other formats (µ-law 8 kHz becomes `audio/pcmu`).
    package init(sampleRateHz: Int = 24_000, profile: OpenAIRealtimeProfile = .openAI) {
        self.init(
            inputFormat: .pcm16(sampleRateHz),
            outputFormat: .pcm16(profile == .azureVoiceLive ? 24_000 : sampleRateHz),
            profile: profile
        )
    }

    /// A dialect with explicit formats, for compatible servers (`.mulaw8k` is sent as `audio/pcmu`).
    package init(inputFormat: AudioFormat, outputFormat: AudioFormat, manualTurns: Bool = false, profile: OpenAIRealtimeProfile = .openAI) {
        self.profile = profile
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        self.manualTurns = manualTurns
    }

    /// The `input_audio_buffer.append` event, identical for every connection.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(
            sharedFrame: EncodedFrame(.text(Self.appendText(base64: Data(bytes).base64EncodedString()))),
            byteCount: bytes.count
        )
    }

    /// A codec for one connection; the scenario's session parameters (see
    /// `OpenAIRealtimeSession.scenarioSession`) are merged into the `session.update` vload sends on open.
    package func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec {
        OpenAIRealtimeClientCodec(dialect: self, parameters: parameters)
    }

    /// `base` with `model=…` added when its query has none: `parameters["model"]` when it is a
    /// string, else `gpt-realtime`; for Azure Voice Live also `api-version=2026-07-15` when
    /// absent.
    package func endpoint(for base: WebSocketEndpoint, parameters: [String: JSONValue]) -> WebSocketEndpoint {
        var endpoint = base
        if profile == .azureVoiceLive, endpoint.queryValue(named: "api-version") == nil {
            endpoint = endpoint.addingQueryItem(name: "api-version", value: AzureVoiceLiveSession.apiVersion)
        }
        guard endpoint.queryValue(named: "model") == nil else { return endpoint }
        var model = Self.defaultModel
        if case .string(let named)? = parameters["model"], !named.isEmpty { model = named }
        return endpoint.addingQueryItem(name: "model", value: model)
    }

    /// This dialect in the formats the scenario's session asks for (`audio.input.format`,
    /// `audio.output.format`: `audio/pcm` at a rate, `audio/pcmu` or `audio/pcma`); against api.openai.com,
    /// which takes PCM at 24 kHz or G.711 only, any other input rate is a one-line error.
    package func configured(parameters: [String: JSONValue], url: String) throws(InputError) -> any ClientDialect {
        if profile == .azureVoiceLive {
            return OpenAIRealtimeClientDialect(
                inputFormat: try AzureVoiceLiveSession.inputFormat(AzureVoiceLiveSession.scenarioSession(parameters)),
                outputFormat: .pcm16(24_000),
                manualTurns: OpenAIRealtimeSession.hasManualTurns(OpenAIRealtimeSession.scenarioSession(parameters)),
                profile: profile
            )
        }
        let session = OpenAIRealtimeSession.scenarioSession(parameters)
        let formats = try OpenAIRealtimeSession.formats(session, fallback: (inputFormat, outputFormat))
        if Self.isOpenAIHost(url), formats.input.encoding == .pcm16, formats.input.sampleRateHz != 24_000 {
            throw InputError(
                "api.openai.com takes PCM at 24000 Hz or G.711 (audio/pcmu, audio/pcma) only; the scenario's session asks for PCM at \(formats.input.sampleRateHz) Hz"
            )
        }
        return OpenAIRealtimeClientDialect(
            inputFormat: formats.input,
            outputFormat: formats.output,
            manualTurns: OpenAIRealtimeSession.hasManualTurns(session)
        )
    }

    /// Whether `url` is OpenAI's own service (api.openai.com), not a compatible server.
    static func isOpenAIHost(_ url: String) -> Bool {
        guard let endpoint = try? WebSocketEndpoint(parsing: url) else { return false }
        return endpoint.host.lowercased() == "api.openai.com"
    }

    /// The `session.update` event for the scenario's session parameters, PCM16 24 kHz in and
    /// out unless they say otherwise: GA-shaped for OpenAI, Voice Live's flat session for Azure
    /// (docs/dialects.md).
    func sessionUpdateFrame(parameters: [String: JSONValue]) -> WireFrame {
        let session = profile.sessionUpdate(parameters: parameters, inputFormat: inputFormat, outputFormat: outputFormat)
        return .text(JSONFrame.text(["type": .string(OpenAIRealtimeEventName.sessionUpdate), "session": .object(session)]))
    }

    /// `{"type":"input_audio_buffer.append","audio":"<b64>"}`, by concatenation.
    static func appendText(base64: String) -> String {
        #"{"type":"input_audio_buffer.append","audio":""# + base64 + #""}"#
    }
}
