import WSCore

/// The `vonage-websocket` dialect, server side: the agent's WebSocket endpoint as the simulator
/// plays it (docs/telephony.md). The call starts with `websocket:connected`; agent audio goes
/// out as binary 16-bit PCM 16 kHz, each turn ends with a `notify`, barge-in is a `clear`.
package struct VonageWebSocketServerDialect: ServerDialect {
    package let id = "vonage-websocket"
    package let inputFormat = AudioFormat.pcm16(16_000)
    package let outputFormat = AudioFormat.pcm16(16_000)
    /// The session starts with Vonage's `websocket:connected`.
    package let sessionStart = ServerSessionStart.onClientStart

    package init() {}

    /// One binary frame, the same for every call.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(sharedFrame: EncodedFrame(.binary(bytes)), byteCount: bytes.count)
    }

    package func makeCodec(target: String) -> any ServerCodec {
        VonageWebSocketServerCodec()
    }
}
