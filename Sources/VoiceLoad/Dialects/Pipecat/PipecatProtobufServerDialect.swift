import WSCore

/// The `pipecat-protobuf` dialect, server side: a Pipecat bot behind a WebSocket transport
/// with `ProtobufFrameSerializer`, as the simulator plays it. The session starts when the
/// socket opens; agent audio goes out as audio frames (PCM16 24 kHz mono, Pipecat's default
/// output), a barge-in as an interruption frame, transcript lines as transcription (user) and
/// text (agent) frames. There is no end-of-turn, ready or error message on this wire.
package struct PipecatProtobufServerDialect: ServerDialect {
    package let id = "pipecat-protobuf"
    package let inputFormat: AudioFormat
    package let outputFormat = AudioFormat.pcm16(24_000)
    package let sessionStart = ServerSessionStart.onOpen

    package init(inputSampleRateHz: Int = PipecatProtobufClientDialect.defaultInputSampleRateHz) {
        self.inputFormat = .pcm16(inputSampleRateHz)
    }

    /// The whole audio frame, the same for every session.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        let frame = PipecatWireFrame.audio(bytes, sampleRateHz: outputFormat.sampleRateHz)
        return PreparedAudio(sharedFrame: EncodedFrame(frame), byteCount: bytes.count)
    }

    /// The codec; Pipecat's transport reads nothing from the URL.
    package func makeCodec(target: String) -> any ServerCodec {
        PipecatProtobufServerCodec(outputFormat: outputFormat)
    }
}
