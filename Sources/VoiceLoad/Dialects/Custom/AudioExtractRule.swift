import Foundation

/// One rule of `audio.output.extract` (docs/custom-dialects.md): frames its `when` matcher
/// accepts carry agent audio, base64 text at `data` (every value the path selects, in
/// order), or, without `data`, the raw bytes of a binary frame.
package struct AudioExtractRule: Sendable {
    package let matcher: FrameMatcher
    /// Where the base64 text is; nil for raw binary audio.
    package let data: FramePath?
    /// Whether `data` is base64url (also accepts standard base64, padding optional);
    /// otherwise strict standard base64 with padding.
    package let isBase64URL: Bool
    package let turnKey: FieldSource?

    /// The audio event of a frame this rule matched: nil when it carries no audio (no data,
    /// `null` or empty), `.malformed` when the data is not a string or not valid base64.
    package func event(in frame: InboundFrame, format: AudioFormat) -> NormalizedEvent? {
        var audio: [UInt8] = []
        if let data {
            for value in data.values(in: frame) {
                if value == .null { continue }
                guard let text = value.stringValue else {
                    return .malformed(reason: "audio data at \(data) is \(JSONFrame.kindName(of: value)), not a string")
                }
                if text.isEmpty { continue }
                guard let bytes = decode(text) else {
                    return .malformed(reason: "audio data at \(data) is not valid base64 (\(text.utf8.count) characters)")
                }
                if audio.isEmpty { audio = bytes } else { audio += bytes }
            }
        } else {
            audio = frame.bytes ?? []
        }
        guard !audio.isEmpty else { return nil }
        return .agentAudio(AgentAudioChunk(audio: audio, format: format, turnKey: turnKey?.string(in: frame)))
    }

    private func decode(_ text: String) -> [UInt8]? {
        guard isBase64URL else { return JSONFrame.base64Decoded(text) }
        var bytes = Array(text.utf8)
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "-"): bytes[index] = UInt8(ascii: "+")
            case UInt8(ascii: "_"): bytes[index] = UInt8(ascii: "/")
            default: break
            }
        }
        while bytes.count % 4 != 0 { bytes.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(bytes)).map { [UInt8]($0) }
    }
}
