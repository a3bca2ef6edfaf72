/// What every WebRTC dialect's caller shares (docs/webrtc.md): Opus's own 48 kHz PCM16 mono both
/// ways (RFC 7587), 20 ms frames only (every browser and aiortc send them, and so does vload),
/// each clip encoded as one Opus stream, and its speech span found on the clip as the agent
/// decodes it (`WebRTCCallerAudio`).
package protocol WebRTCClientDialect: ClientDialect {}

extension WebRTCClientDialect {
    /// The PCM vload encodes to Opus.
    package var inputFormat: AudioFormat { .pcm16(OpusClip.sampleRateHz) }
    /// The agent's Opus, decoded.
    package var outputFormat: AudioFormat { .pcm16(OpusClip.sampleRateHz) }
    package var defaultFrameMs: Int { OpusClip.frameMs }
    package var requiredFrameMs: Int? { OpusClip.frameMs }

    /// One frame alone: the silence streamed between clips. A frame of digital silence is
    /// `OpusSilence`'s packet (`WebRTCCallerAudio.silence`), which an agent's decoder answers
    /// without libopus once settled; any other frame is encoded with an encoder of its own.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        if bytes.count == OpusClip.frameSamples * 2, !bytes.contains(where: { $0 != 0 }) { return WebRTCCallerAudio.silence }
        return prepareClip([bytes])[0]
    }

    /// A clip's frames with one encoder, in order, as a microphone's stream is encoded.
    package func prepareClip(_ frames: [[UInt8]]) -> [PreparedAudio] {
        WebRTCCallerAudio.prepareClip(frames)
    }

    /// The clip as the agent decodes it: its speech span is found there (`FrameSet`).
    package func heardSamples(of frames: [PreparedAudio]) -> [Int16]? {
        WebRTCCallerAudio.heardSamples(of: frames)
    }
}
