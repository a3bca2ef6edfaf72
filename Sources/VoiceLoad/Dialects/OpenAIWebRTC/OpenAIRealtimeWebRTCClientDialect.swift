import WSClient
import WSCore
import WebRTC

/// The `openai-realtime-webrtc` dialect, client side: vload calls an OpenAI Realtime agent over
/// WebRTC, as a browser or mobile caller does (docs/webrtc.md): the SDP offer posted to
/// `/v1/realtime/calls` with the key (`OpenAIRealtimeCallRequest`), the caller's audio as 20 ms
/// Opus frames over SRTP, the agent's audio decoded from Opus, and the Realtime API's JSON
/// events, the same as over the WebSocket (`openai-realtime`), on the `oai-events` data channel:
/// ready on `session.updated` after vload's `session.update`, the turn's end when its audio is
/// out (`OpenAIRealtimeWebRTCClientCodec`).
package struct OpenAIRealtimeWebRTCClientDialect: WebRTCClientDialect {
    package let id = "openai-realtime-webrtc"
    package let apiVersion = "POST /v1/realtime/calls and the GA Realtime events on the oai-events data channel (openai 3.51)"
    package let readySignal = ReadySignal.event
    package let turnEndSignal = TurnEndSignal.event
    /// `Authorization: Bearer KEY` on the offer's POST (an API key or an ephemeral client secret).
    package let authentication = AuthenticationStyle.header(name: "Authorization", prefix: "Bearer ")
    /// Nothing answers a hang-up: the caller closes the call.
    package let awaitsSessionEndOnHangUp = false
    /// A barge-in's response ends in `response.done` with status `cancelled` (`int_cancel_ms`).
    package let cancelsResponses = true
    /// The session the events are read and written for: the WebSocket dialect's, whose manual
    /// turns (`turn_detection: null`) it keeps.
    let realtime: OpenAIRealtimeClientDialect
    package var typesRead: [String] { OpenAIRealtimeEventName.serverTypesRead }

    package init(realtime: OpenAIRealtimeClientDialect = OpenAIRealtimeClientDialect()) {
        self.realtime = realtime
    }

    /// The path the offer goes to when `--url` names none.
    package static let callsPath = "/v1/realtime/calls"
    /// The data channel's label: the Realtime API reads its events on this one.
    package static let channelLabel = "oai-events"

    /// No WebSocket: the call's phases, ready and started, the audio metrics and the input
    /// transcription's (and with manual turns, first audio from the commit), as over the WebSocket.
    package var measures: Set<MetricName> {
        var metrics: Set<MetricName> = [
            .connectMs, .signallingMs, .iceMs, .dtlsMs, .dataChannelOpenMs, .sessionSetupTotalMs, .readyFromScheduledMs, .readyMs,
            .startedMs, .userTranscriptFirstPartialMs, .userTranscriptFinalMs,
        ]
        metrics.formUnion(MetricName.audioReply)
        if realtime.manualTurns { metrics.insert(.firstAudioFromCommitMs) }
        return metrics
    }

    /// The scenario's session read as the WebSocket dialect reads it (its manual turns); its
    /// audio formats are the media's and are not sent.
    package func configured(parameters: [String: JSONValue], url: String) throws(InputError) -> any ClientDialect {
        OpenAIRealtimeWebRTCClientDialect(
            realtime: OpenAIRealtimeClientDialect(
                inputFormat: realtime.inputFormat, outputFormat: realtime.outputFormat,
                manualTurns: OpenAIRealtimeSession.hasManualTurns(OpenAIRealtimeSession.scenarioSession(parameters))))
    }

    package func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec {
        OpenAIRealtimeWebRTCClientCodec(realtime: OpenAIRealtimeClientCodec(dialect: realtime, parameters: parameters))
    }

    /// `--url http(s)://HOST[:PORT]` posts to `/v1/realtime/calls`; a URL with a path posts
    /// there. The session's model is the scenario's `model`, else `gpt-realtime`.
    package func connectionTarget(url: String, parameters: [String: JSONValue], token: String?) throws(InputError) -> ConnectionTarget? {
        guard var endpoint = HTTPEndpoint(parsing: url) else {
            throw InputError(
                "openai-realtime-webrtc needs the Realtime API's http(s):// URL (e.g. https://api.openai.com, or http://127.0.0.1:PORT), got \(url)")
        }
        if endpoint.requestTarget == "/" { endpoint.requestTarget = Self.callsPath }
        let model = OpenAIRealtimeSession.scenarioSession(parameters)["model"]?.stringValue ?? OpenAIRealtimeClientDialect.defaultModel
        return .webRTC(
            try WebRTCCallTarget.make(
                dialect: "openai-realtime-webrtc", offerEndpoint: endpoint,
                signalling: .openAIRealtimeCalls(OpenAIRealtimeCallRequest(model: model, token: token)), channelLabel: Self.channelLabel))
    }
}
