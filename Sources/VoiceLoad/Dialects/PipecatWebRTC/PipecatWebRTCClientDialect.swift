import WSClient
import WSCore
import WebRTC

/// The `pipecat-webrtc` dialect, client side: vload calls a Pipecat bot over its SmallWebRTC
/// transport (pipecat-ai 1.14, aiortc underneath) as Pipecat's web clients do
/// (docs/webrtc.md): the SDP offer posted to `/api/offer`, the caller's audio as 20 ms Opus
/// frames over SRTP, the bot's audio decoded from Opus, and RTVI's JSON messages on the data
/// channel, where `client-ready` → `bot-ready` makes the session ready. Turns end with a gap in
/// the audio, as on Pipecat's WebSocket transports; hanging up is closing the call.
package struct PipecatWebRTCClientDialect: WebRTCClientDialect {
    package let id = "pipecat-webrtc"
    package let apiVersion = "SmallWebRTC POST /api/offer and RTVI \(PipecatRTVI.protocolVersion) (pipecat-ai 1.14)"
    package let readySignal = ReadySignal.event
    package let turnEndSignal = TurnEndSignal.audioGap
    /// SmallWebRTC's runner checks nothing; a bot behind a proxy that does is not reached yet.
    package let authentication = AuthenticationStyle.none
    /// Nothing answers a hang-up: the caller closes the call.
    package let awaitsSessionEndOnHangUp = false

    package init() {}

    /// No WebSocket: connect, ready and the audio metrics. The WebSocket's phases (DNS, TCP,
    /// upgrade) are not a call's.
    package var measures: Set<MetricName> {
        var metrics: Set<MetricName> = [
            .connectMs, .signallingMs, .iceMs, .dtlsMs, .dataChannelOpenMs, .sessionSetupTotalMs, .readyFromScheduledMs, .readyMs,
        ]
        metrics.formUnion(MetricName.audioReply)
        return metrics
    }

    /// The label of the one data channel vload opens (Pipecat takes whichever the caller opens).
    static let channelLabel = "vload"

    package func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec {
        PipecatWebRTCClientCodec()
    }

    /// The bot's offer URL: `--url http://HOST:PORT` posts to `/api/offer`, as Pipecat's runner
    /// serves it; a URL with a path posts there.
    package func connectionTarget(url: String, parameters: [String: JSONValue], token: String?) throws(InputError) -> ConnectionTarget? {
        guard var endpoint = HTTPEndpoint(parsing: url) else {
            throw InputError("pipecat-webrtc needs the bot's http:// URL (its SmallWebRTC runner, e.g. http://127.0.0.1:7860), got \(url)")
        }
        if endpoint.requestTarget == "/" { endpoint.requestTarget = "/api/offer" }
        return .webRTC(
            try WebRTCCallTarget.make(dialect: "pipecat-webrtc", offerEndpoint: endpoint, signalling: .smallWebRTC, channelLabel: Self.channelLabel))
    }
}
