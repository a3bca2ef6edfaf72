import Foundation

/// The server side of the OpenAI Realtime API (docs/dialects.md), as the agent simulator speaks
/// it: `session.created` on open, `session.updated` once the client's `session.update` has
/// been applied, GA event names, and audio deltas tagged with the current response's ids.
public struct OpenAIRealtimeServerDialect: ServerDialect {
    public let id = "openai-realtime"
    /// User audio format: PCM16 24 kHz by default.
    public let inputFormat: AudioFormat
    /// Agent audio format: PCM16 24 kHz by default.
    public let outputFormat: AudioFormat
    /// The session starts with the client's `session.update`.
    public let sessionStart = ServerSessionStart.onClientStart
    /// The client runs the tools: each call is answered with a `function_call_output` item.
    public let awaitsToolResults = true

    /// The standard server: PCM16 at `sampleRateHz` both ways.
    public init(sampleRateHz: Int = 24_000) {
        self.init(inputFormat: .pcm16(sampleRateHz), outputFormat: .pcm16(sampleRateHz))
    }

    /// A server with explicit formats.
    public init(inputFormat: AudioFormat, outputFormat: AudioFormat) {
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
    }

    /// The audio as base64: each delta carries the current `response_id` and `item_id`, so
    /// the frame is built per send.
    public func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(base64: Data(bytes).base64EncodedString(), byteCount: bytes.count)
    }

    /// A codec for one connection; the target (`/v1/realtime?model=…`) changes nothing.
    public func makeCodec(target: String) -> any ServerCodec {
        OpenAIRealtimeServerCodec(inputFormat: inputFormat, outputFormat: outputFormat)
    }
}
