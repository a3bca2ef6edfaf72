import WSCore

/// The audio of every WebRTC dialect (docs/webrtc.md): the caller's clips as Opus packets, and
/// the agent's decoded packets as agent audio.
package enum WebRTCCallerAudio {
    /// A clip's frames (PCM16 little-endian at 48 kHz, as `PreparedUtterance` makes them)
    /// encoded with one encoder, in order, as a microphone's stream is encoded.
    static func prepareClip(_ frames: [[UInt8]]) -> [PreparedAudio] {
        var encoder: OpusFrameEncoder
        do {
            encoder = try OpusFrameEncoder()
        } catch {
            preconditionFailure("libopus cannot make an encoder: \(error)")
        }
        var prepared: [PreparedAudio] = []
        prepared.reserveCapacity(frames.count)
        for bytes in frames {
            let samples = stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
            do {
                let packet = try encoder.encode(samples[...])
                prepared.append(PreparedAudio(sharedFrame: EncodedFrame(.binary(packet)), byteCount: bytes.count))
            } catch {
                // The frame length is checked when the plan is built (`requiredFrameMs`).
                preconditionFailure("Opus encoding of a caller frame failed: \(error)")
            }
        }
        return prepared
    }

    /// 20 ms of digital silence as the caller streams it between clips: `OpusSilence`'s packet.
    static let silence = PreparedAudio(sharedFrame: EncodedFrame(.binary(OpusSilence.packet)), byteCount: OpusClip.frameSamples * 2)

    /// A clip's Opus frames as the agent hears them: decoded in order by one decoder, as the
    /// agent's decoder takes the stream, with the encoder's lookahead (312 samples, 6.5 ms)
    /// skipped at the start so that sample n is the clip's sample n (RFC 7845 §4.2's pre-skip),
    /// and the frame of silence the caller sends after the clip (`silence`) to bring its last
    /// samples out; as long as the clip.
    static func heardSamples(of frames: [PreparedAudio]) -> [Int16] {
        var decoder: OpusPacketDecoder
        do {
            decoder = try OpusPacketDecoder()
        } catch {
            preconditionFailure("libopus cannot make a decoder: \(error)")
        }
        let lookahead = lookaheadSamples
        let clipSamples = frames.count * OpusClip.frameSamples
        var heard: [Int16] = []
        heard.reserveCapacity(clipSamples + lookahead + OpusClip.frameSamples)
        for frame in frames + [silence] {
            let packet = Array(frame.sharedFrame?.payload.readableBytesView ?? [])
            heard += (try? decoder.decode(packet)) ?? [Int16](repeating: 0, count: OpusClip.frameSamples)
        }
        return Array(heard.dropFirst(lookahead).prefix(clipSamples))
    }

    /// The encoder's lookahead in samples at 48 kHz (libopus's, for the VOIP application).
    package static let lookaheadSamples: Int = (try? OpusFrameEncoder().lookaheadSamples) ?? 0

    /// One decoded agent packet (PCM16 at 48 kHz, `WebRTCCallSession`) as agent audio.
    ///
    /// A packet that decodes to digital silence (every sample 0) is no agent audio: a WebRTC
    /// track never stops, and an agent with nothing to say sends zeros (Pipecat's output track
    /// does, `auto_silence`), which Opus carries as 3-byte packets that decode to exact zeros
    /// (measured with aiortc 1.16's codec: the last voiced frame's tail is non-zero for one
    /// packet, then every sample is 0). Counting them would make every moment of the call agent
    /// audio, with no first audio and no quiet gap to end a turn.
    static func agentAudio(_ pcm: [UInt8]) -> DecodedFrame {
        guard !AudioLevel.isDigitalSilence(pcm) else { return [] }
        return [.agentAudio(AgentAudioChunk(audio: pcm, format: .pcm16(OpusClip.sampleRateHz)))]
    }
}
