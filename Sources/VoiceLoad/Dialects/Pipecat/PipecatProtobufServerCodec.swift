import WSCore

/// The bot side of one `pipecat-protobuf` connection, as Pipecat's serializer and transport
/// behave: what the client sends becomes intents, what the agent does becomes frames.
struct PipecatProtobufServerCodec: ServerCodec {
    let outputFormat: AudioFormat

    /// audio → audio (an empty one → nothing), text → text, interruption → interrupt;
    /// transcription and message frames → nothing (Pipecat pushes them down its pipeline, and
    /// the simulated agent has no use for them). Throws `.malformed` for what is not a
    /// `pipecat.Frame` and `.unknownType` for a frame with nothing set.
    mutating func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        switch PipecatWireFrame.decode(frame) {
        case .failure(.noFrame):
            throw .unknownType("empty pipecat.Frame")
        case .failure(let error):
            throw .malformed(error.reason)
        case .success(.audio(let audio)):
            return audio.audio.isEmpty ? [] : [.audio([UInt8](audio.audio))]
        case .success(.text(let text)):
            return [.text(text.text)]
        case .success(.interruption):
            return [.interrupt]
        case .success(.transcription), .success(.message):
            return []
        }
    }

    /// Audio → an audio frame, `interrupted` → an interruption frame (what Pipecat's output
    /// transport writes on an `InterruptionFrame`), a transcript line → a transcription frame
    /// (the user's) or a text frame (the agent's). Nothing else has a frame.
    func frames(for output: AgentOutput) -> [WireFrame] {
        switch output {
        case .audio(let bytes):
            return [PipecatWireFrame.audio(bytes, sampleRateHz: outputFormat.sampleRateHz)]
        case .interrupted:
            return [PipecatWireFrame.interruption()]
        case .transcript(let line) where line.role == "user":
            return [PipecatWireFrame.transcription(line.text, userID: "user", timestamp: "")]
        case .transcript(let line):
            return [PipecatWireFrame.text(line.text)]
        case .connectionOpened, .userTurnResumed, .sessionStarted, .ready, .userSpeechStarted, .userSpeechStopped, .agentTurnStarted,
            .agentAudioDone, .turnComplete, .responseCancelled, .toolCall, .speechResult, .utteranceEnd, .error, .ended:
            return []
        }
    }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }
}
