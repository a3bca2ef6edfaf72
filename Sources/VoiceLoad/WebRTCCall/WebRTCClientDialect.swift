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

    /// One frame alone, encoded with an encoder of its own.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        prepareClip([bytes])[0]
    }

    /// The silence streamed between clips: `OpusSilence`'s packet (`WebRTCCallerAudio.silence`),
    /// 20 ms of zeros as aiortc encodes them, which an agent's decoder answers without libopus
    /// once settled. Every WebRTC frame is 20 ms (`requiredFrameMs`, checked when the plan is
    /// built).
    package func silenceFrame(frameMs: Int) -> PreparedAudio {
        WebRTCCallerAudio.silence
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
