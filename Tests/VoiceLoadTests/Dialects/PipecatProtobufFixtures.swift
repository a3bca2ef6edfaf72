/// `pipecat.Frame` messages as pipecat-ai 1.14's `ProtobufFrameSerializer.serialize` wrote them
/// (hex), so the codec tests read bytes that no vload code produced.
enum PipecatProtobufFixtures {
    /// `OutputAudioRawFrame(audio=b"\x01\x00\xff\x7f", sample_rate=24000, num_channels=1)`, id 1.
    static let audio24k = bytes("1225080112154f7574707574417564696f5261774672616d6523301a040100ff7f20c0bb012801")
    /// `InterruptionFrame()`, id 2.
    static let interruption = bytes("2a1708021213496e74657272757074696f6e4672616d652330")
    /// `TranscriptionFrame(text="hi there", user_id="u1", timestamp="2026-01-01T00:00:00")`, id 3.
    static let transcription = bytes(
        "1a3b080312145472616e736372697074696f6e4672616d6523301a086869207468657265220275312a13323032362d30312d30315430303a30303a3030"
    )
    /// `TextFrame(text="Sunny.")`, id 4.
    static let text = bytes("0a170804120b546578744672616d6523301a0653756e6e792e")
    /// `OutputTransportMessageUrgentFrame(message={"label": "rtvi-ai", "type": "user-started-speaking"})`.
    static let userStartedSpeaking = bytes(
        "22370a357b226c6162656c223a2022727476692d6169222c202274797065223a2022757365722d737461727465642d737065616b696e67227d"
    )
    /// `frames_pb2.Frame(audio=AudioRawFrame(audio=b"\x01\x00", sample_rate=16000, num_channels=1))`:
    /// what a Pipecat client sends.
    static let clientAudio16k = bytes("12091a02010020807d2801")

    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return result
    }
}
