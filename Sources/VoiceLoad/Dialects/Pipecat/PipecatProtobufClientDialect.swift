import WSCore

/// The `pipecat-protobuf` dialect, client side: vload plays one of Pipecat's web or mobile
/// clients towards a Pipecat bot whose WebSocket transport uses `ProtobufFrameSerializer`
/// (pipecat-ai 1.14). Every message is a binary `pipecat.Frame`: vload streams PCM16 audio
/// frames (with their rate and channel count) from the moment the socket opens, hears the
/// bot's audio frames, and takes the bot's interruption frame as the barge-in acknowledgement.
/// The wire has no ready, end-of-turn or end-of-session message: the session is ready on open,
/// a turn ends with a gap in the audio, and hanging up is closing the socket.
package struct PipecatProtobufClientDialect: ClientDialect {
    package let id = "pipecat-protobuf"
    package let apiVersion = "pipecat frames.proto and RTVI \(PipecatRTVI.protocolVersion) (pipecat-ai 1.14)"
    /// 16 kHz unless the scenario's `sample_rate` says otherwise: Pipecat's input transport
    /// does not resample, so this must be the bot's `audio_in_sample_rate` (16 kHz by default).
    package static let defaultInputSampleRateHz = 16_000
    package let inputFormat: AudioFormat
    /// Pipecat's default output rate; each audio frame states its own rate, which is what
    /// vload times the audio by.
    package let outputFormat = AudioFormat.pcm16(24_000)
    package let readySignal = ReadySignal.onOpen
    package let turnEndSignal = TurnEndSignal.audioGap
    /// Pipecat's WebSocket transport checks nothing; a server that does can take `--header`.
    package let authentication = AuthenticationStyle.none
    /// Nothing answers a hang-up on this wire: the client closes the socket.
    package let awaitsSessionEndOnHangUp = false

    package init(inputSampleRateHz: Int = Self.defaultInputSampleRateHz) {
        self.inputFormat = .pcm16(inputSampleRateHz)
    }

    /// This dialect with the input rate the scenario's `session: {sample_rate: N}` names.
    package func configured(parameters: [String: JSONValue], url: String) throws(InputError) -> any ClientDialect {
        guard parameters["sample_rate"] != nil else { return self }
        guard let rateHz = SmallestAtomsClientDialect.sampleRateHz(in: parameters), (8_000...48_000).contains(rateHz) else {
            throw InputError("pipecat-protobuf: session sample_rate must be a whole number of Hz from 8000 to 48000")
        }
        return PipecatProtobufClientDialect(inputSampleRateHz: rateHz)
    }

    /// The whole audio frame, the same for every connection.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        let frame = PipecatWireFrame.audio(bytes, sampleRateHz: inputFormat.sampleRateHz)
        return PreparedAudio(sharedFrame: EncodedFrame(frame), byteCount: bytes.count)
    }

    package func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec {
        PipecatProtobufClientCodec(inputFormat: inputFormat)
    }
}
