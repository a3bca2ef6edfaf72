import VoiceLoad
import WSCore

/// The payload of the decoder and assembler fuzz targets: one byte choosing the codec (modulo
/// the number of codecs), then frames separated by `separator`, each a kind byte (even: a
/// text frame, odd: a binary frame) and its payload. Text payloads are read as UTF-8, invalid
/// sequences becoming U+FFFD, as a WebSocket text message does.
package enum FuzzFrameSequence {
    /// Four 0xF5 bytes: never in UTF-8 text, and rare in audio.
    package static let separator: [UInt8] = [0xF5, 0xF5, 0xF5, 0xF5]
    /// Frames past this many are ignored, so one input stays fast.
    package static let maxFrames = 64

    /// The payload carrying `frames` for codec `selector`.
    package static func encode(selector: Int, frames: [WireFrame]) -> [UInt8] {
        var bytes = [UInt8(truncatingIfNeeded: selector)]
        for (index, frame) in frames.enumerated() {
            if index > 0 { bytes += separator }
            switch frame {
            case .text(let text):
                bytes.append(0)
                bytes += Array(text.utf8)
            case .binary(let payload):
                bytes.append(1)
                bytes += payload
            }
        }
        return bytes
    }

    /// The codec selector and the frames of `payload` (no frames when it is empty).
    package static func decode(_ payload: [UInt8]) -> (selector: Int, frames: [WireFrame]) {
        guard let selector = payload.first else { return (0, []) }
        var frames: [WireFrame] = []
        var start = 1
        while start <= payload.count, frames.count < maxFrames {
            let end = firstSeparator(in: payload, from: start) ?? payload.count
            if end > start || start < payload.count || frames.isEmpty {
                frames.append(frame(payload[start..<end]))
            }
            start = end + separator.count
        }
        return (Int(selector), frames)
    }

    private static func frame(_ bytes: ArraySlice<UInt8>) -> WireFrame {
        guard let kind = bytes.first else { return .text("") }
        let body = bytes.dropFirst()
        return kind % 2 == 0 ? .text(String(decoding: body, as: UTF8.self)) : .binary(Array(body))
    }

    private static func firstSeparator(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= separator.count else { return nil }
        var index = start
        while index + separator.count <= bytes.count {
            if bytes[index] == separator[0], bytes[index + 1] == separator[1],
                bytes[index + 2] == separator[2], bytes[index + 3] == separator[3]
            {
                return index
            }
            index += 1
        }
        return nil
    }
}
