/// What the simulator's side of every WebRTC dialect shares (docs/webrtc.md): the caller's Opus
/// decoded to 48 kHz PCM16 mono, and the reply's 20 ms frames encoded with one encoder per clip,
/// in order, as a bot's output track encodes a stream: the caller's encoding
/// (`WebRTCCallerAudio`), once per run and shared by every session.
package protocol WebRTCServerDialect: ServerDialect {}

extension WebRTCServerDialect {
    package var inputFormat: AudioFormat { .pcm16(OpusClip.sampleRateHz) }
    package var outputFormat: AudioFormat { .pcm16(OpusClip.sampleRateHz) }

    /// One frame alone, with an encoder of its own.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        prepareClip([bytes])[0]
    }

    package func prepareClip(_ frames: [[UInt8]]) -> [PreparedAudio] {
        WebRTCCallerAudio.prepareClip(frames)
    }
}
