import Foundation
import WSCore

/// The client side of one `pipecat-protobuf` connection. Stateless: Pipecat's serializer needs
/// no ids or sequence numbers, so every frame is built from the intent alone.
struct PipecatProtobufClientCodec: ClientCodec {
    let inputFormat: AudioFormat

    /// RTVI `client-ready` (`PipecatRTVI`), in a transport message: Pipecat's transport starts
    /// its pipeline when the socket opens, and a bot with the RTVI processor streams once the
    /// client is ready, as Pipecat's own clients announce it. A bot without it drops the message.
    mutating func framesOnOpen() -> [WireFrame] {
        [PipecatWireFrame.message(json: PipecatRTVI.clientReady(id: "vload-client-ready"))]
    }

    mutating func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }

    /// Audio → an audio frame at the input rate, mono; `text` → a text frame; `interrupt` (a
    /// `barge_in: command`) → an interruption frame, which Pipecat's input transport pushes
    /// down its pipeline as an `InterruptionFrame`. The wire has no message for the others:
    /// `stop` is the close itself.
    mutating func frames(for intent: ClientIntent) -> [WireFrame] {
        switch intent {
        case .audio(let bytes):
            return [PipecatWireFrame.audio(bytes, sampleRateHz: inputFormat.sampleRateHz)]
        case .text(let text):
            return [PipecatWireFrame.text(text)]
        case .interrupt:
            return [PipecatWireFrame.interruption()]
        case .start, .commit, .keepAlive, .toolResult, .playbackTruncated, .markPlayed, .dtmf, .stop, .configure:
            return []
        }
    }

    /// audio → agent audio at the frame's own rate and channel count; interruption →
    /// barge-in acknowledged; transcription → the user's final transcript; text → the agent's
    /// text; message → the RTVI event it carries, when vload knows it.
    mutating func receive(_ frame: WireFrame) -> DecodedFrame {
        switch PipecatWireFrame.decode(frame) {
        case .failure(let error):
            return [.malformed(reason: error.reason)]
        case .success(.audio(let audio)):
            return Self.audioEvents(audio)
        case .success(.interruption):
            return [.agentInterrupted]
        case .success(.transcription(let transcription)):
            return [.transcript(role: "user", text: transcription.text, isFinal: true)]
        case .success(.text(let text)):
            return [.transcript(role: "agent", text: text.text, isFinal: true)]
        case .success(.message(let message)):
            return DecodedFrame(events: PipecatTransportMessage.events(json: message.data))
        }
    }

    private static func audioEvents(_ audio: Pipecat_AudioRawFrame) -> DecodedFrame {
        guard audio.sampleRate > 0, audio.numChannels > 0 else {
            return [.malformed(reason: "audio frame with sample_rate \(audio.sampleRate), num_channels \(audio.numChannels)")]
        }
        guard !audio.audio.isEmpty else { return [] }
        let bytes = [UInt8](audio.audio)
        let channels = Int(audio.numChannels)
        let format = AudioFormat.pcm16(Int(audio.sampleRate))
        // Interleaved channels play at once: the duration is one channel's.
        let chunk = AgentAudioChunk(
            byteCount: bytes.count,
            durationUs: format.durationUs(byteCount: bytes.count / channels),
            rmsLevel: AudioLevel.rms(of: bytes, format: format)
        )
        return [.agentAudio(chunk)]
    }
}
