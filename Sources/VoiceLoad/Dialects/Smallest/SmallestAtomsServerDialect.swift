import Foundation
import WSCore

/// The server side of the Smallest.ai Atoms realtime agent WebSocket (docs/dialects.md), as
/// the agent simulator speaks it: the session starts on connect, `session.created` says it
/// is ready, and agent turns are framed by `agent_start_talking` / `agent_stop_talking`.
package struct SmallestAtomsServerDialect: ServerDialect {
    package let id = "smallest-atoms"
    /// The rate of both directions, echoed in `session.created.sample_rate`.
    package let sampleRateHz: Int
    /// User audio format: PCM16 at `sampleRateHz`.
    package let inputFormat: AudioFormat
    /// Agent audio format: PCM16 at `sampleRateHz`.
    package let outputFormat: AudioFormat
    /// No client start message: the session starts when the socket opens.
    package let sessionStart = ServerSessionStart.onOpen

    /// The simulator side at `sampleRateHz` in both directions (24 kHz by default).
    package init(sampleRateHz: Int = SmallestAtomsClientDialect.defaultSampleRateHz) {
        self.sampleRateHz = sampleRateHz
        self.inputFormat = .pcm16(sampleRateHz)
        self.outputFormat = .pcm16(sampleRateHz)
    }

    /// The `output_audio.delta` text frame for one chunk, shared by every session.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(sharedFrame: EncodedFrame(Self.audioFrame(bytes)), byteCount: bytes.count)
    }

    /// A codec that remembers the session id for `session.created`.
    package func makeCodec(target: String) -> any ServerCodec {
        SmallestAtomsServerCodec(sampleRateHz: sampleRateHz)
    }

    /// The intents in one client frame: `input_audio_buffer.append` (base64 → bytes; empty
    /// audio → no intent), `input_audio_buffer.commit`, `input_text.send`, `session.close`
    /// (→ stop) and `session.update` (reserved, a no-op: no intent). Throws `.unknownType` for
    /// a well-formed message of another type and `.malformed` for anything else.
    package static func decode(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        let message: SmallestAtomsMessage
        switch SmallestAtomsMessage.parse(frame) {
        case .success(let parsed): message = parsed
        case .failure(let error): throw .malformed(error.reason)
        }
        typealias Name = SmallestAtomsMessage.Name
        switch message.type {
        case Name.append:
            guard let base64 = message.string("audio") else { throw .malformed("\(Name.append) without an audio string") }
            if base64.isEmpty { return [] }
            guard let bytes = JSONFrame.base64Decoded(base64) else {
                throw .malformed("\(Name.append) audio is not valid base64 (\(base64.utf8.count) characters)")
            }
            return bytes.isEmpty ? [] : [.audio(bytes)]
        case Name.commit:
            return [.commit]
        case Name.textSend:
            guard let text = message.string("text") else { throw .malformed("\(Name.textSend) without a text string") }
            return [.text(text)]
        case Name.sessionClose:
            return [.stop]
        case Name.sessionUpdate:
            return []
        default:
            throw .unknownType(message.type)
        }
    }

    /// The `output_audio.delta` text frame carrying `bytes`.
    static func audioFrame(_ bytes: [UInt8]) -> WireFrame {
        .text(
            SmallestAtomsMessage.audioText(
                type: SmallestAtomsMessage.Name.audioDelta,
                base64: Data(bytes).base64EncodedString()
            )
        )
    }
}
