import WSCore

/// The `vonage-websocket` dialect, client side: vload impersonates Vonage's Voice API towards an
/// agent's WebSocket endpoint (docs/telephony.md). It sends `websocket:connected` on open, then a
/// continuous 20 ms cadence of 16-bit PCM 16 kHz in binary frames; the agent's `clear` is
/// barge-in. There is no ready or end-of-turn message on this wire.
package struct VonageWebSocketClientDialect: ClientDialect {
    package let id = "vonage-websocket"
    package let apiVersion = "Voice API WebSocket, audio/l16 (Vonage names no version)"
    /// 16-bit PCM at 16 kHz: Vonage's `audio/l16;rate=16000`, Pipecat's default.
    package let inputFormat = AudioFormat.pcm16(16_000)
    package let outputFormat = AudioFormat.pcm16(16_000)
    package let readySignal = ReadySignal.onOpen
    package let turnEndSignal = TurnEndSignal.audioGap
    /// `--token` goes into `websocket:connected`, where Vonage puts the endpoint's headers.
    package let authentication = AuthenticationStyle.sessionParameter(name: "token")
    /// 20 ms, Vonage's cadence.
    package let defaultFrameMs = 20
    /// Vonage hangs up by closing the socket; the agent sends nothing to wait for.
    package let awaitsSessionEndOnHangUp = false

    package init() {}

    /// One binary frame, the same for every call.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(sharedFrame: EncodedFrame(.binary(bytes)), byteCount: bytes.count)
    }

    /// `parameters`: `custom_parameters` (an object) and `token` join `websocket:connected`.
    package func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec {
        VonageWebSocketClientCodec(format: inputFormat, parameters: parameters)
    }
}
