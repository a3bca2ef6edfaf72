import Foundation
import WSCore

/// The server side of an ADK bidi-streaming application (docs/dialects.md), in one of the
/// three wire shapes, as the agent simulator speaks it: the session starts when the socket
/// opens, with no ready message and no goodbye.
package struct ADKServerDialect: ServerDialect {
    package let variant: ADKVariant
    /// User audio format: PCM16 16 kHz by default.
    package let inputFormat: AudioFormat
    /// Agent audio format: PCM16 24 kHz by default.
    package let outputFormat: AudioFormat
    /// The server starts the ADK/Live session when it accepts the socket.
    package let sessionStart = ServerSessionStart.onOpen

    /// The simulator side of `variant`, with the ADK default formats unless told otherwise.
    package init(variant: ADKVariant, inputFormat: AudioFormat = .pcm16(16_000), outputFormat: AudioFormat = .pcm16(24_000)) {
        self.variant = variant
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
    }

    /// The variant's id: `adk-seed`, `adk-legacy` or `adk-events`.
    package var id: String { variant.id }

    /// The variant's agent audio frame for one chunk, shared by every session.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(
            sharedFrame: EncodedFrame(ADKServerCodec.audioFrame(bytes, variant: variant, format: outputFormat)),
            byteCount: bytes.count
        )
    }

    /// ADK servers keep no per-connection wire state: every codec is the same.
    package func makeCodec(target: String) -> any ServerCodec {
        ADKServerCodec(variant: variant, outputFormat: outputFormat)
    }

    /// The intents in one client frame. Seed and legacy: JSON (text or binary frame) with
    /// `mime_type` `audio/pcm` (base64 `data` → audio; empty → no intent) or `text/plain`
    /// (→ text). Events: a binary frame is raw PCM (→ audio; empty → no intent); a text frame
    /// is `{"type":"text","text":…}` (→ text) or `{"type":"image",…}` (no intent). Throws
    /// `.unknownType` for well-formed messages of another kind, `.malformed` for the rest.
    package static func decode(_ frame: WireFrame, variant: ADKVariant) throws(DialectDecodingError) -> [ClientIntent] {
        if variant == .events, case .binary(let bytes) = frame {
            return bytes.isEmpty ? [] : [.audio(bytes)]
        }
        let object: ADKJSONObject
        switch ADKJSONObject.parse(frame) {
        case .success(let parsed): object = parsed
        case .failure(let error): throw .malformed(error.reason)
        }
        switch variant {
        case .seed, .legacy: return try flatIntents(object)
        case .events: return try eventsIntents(object)
        }
    }

    private static func flatIntents(_ object: ADKJSONObject) throws(DialectDecodingError) -> [ClientIntent] {
        guard let rawMimeType = object.value("mime_type") else {
            if let type = object.value("type")?.stringValue { throw .unknownType(type) }
            throw .malformed("message has no \"mime_type\"")
        }
        guard let mimeType = rawMimeType.stringValue else {
            throw .malformed("\"mime_type\" is \(JSONFrame.kindName(of: rawMimeType)), not a string")
        }
        guard let data = object.value("data")?.stringValue else { throw .malformed("\(mimeType) message without a data string") }
        if mimeType.hasPrefix("audio/pcm") {
            if data.isEmpty { return [] }
            guard let bytes = JSONFrame.base64Decoded(data) else {
                throw .malformed("audio data is not valid base64 (\(data.utf8.count) characters)")
            }
            return bytes.isEmpty ? [] : [.audio(bytes)]
        }
        if mimeType == "text/plain" { return [.text(data)] }
        throw .unknownType(mimeType)
    }

    private static func eventsIntents(_ object: ADKJSONObject) throws(DialectDecodingError) -> [ClientIntent] {
        guard let rawType = object.value("type") else { throw .malformed("message has no \"type\"") }
        guard let type = rawType.stringValue else {
            throw .malformed("\"type\" is \(JSONFrame.kindName(of: rawType)), not a string")
        }
        switch type {
        case "text":
            guard let text = object.value("text")?.stringValue else { throw .malformed("text message without a text string") }
            return [.text(text)]
        case "image":
            return []
        default:
            throw .unknownType(type)
        }
    }
}
