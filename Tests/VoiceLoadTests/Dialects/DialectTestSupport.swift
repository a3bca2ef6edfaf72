import Foundation
import Testing
import WSCore

@testable import VoiceLoad

/// Helpers shared by the dialect codec tests.
enum DialectTestSupport {
    /// `sampleCount` samples of a 440 Hz tone at `rateHz`, PCM16 little-endian: voiced agent audio.
    static func tone(sampleCount: Int, rateHz: Int) -> [UInt8] {
        (0..<sampleCount).flatMap { index -> [UInt8] in
            let sample = Int16(8_000 * sin(2 * Double.pi * 440 * Double(index) / Double(rateHz)))
            return [UInt8(truncatingIfNeeded: sample), UInt8(truncatingIfNeeded: sample >> 8)]
        }
    }

    /// The JSON value of `text`, parsed with `JSONDecoder`, independently of the code under test.
    static func json(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// The JSON value a frame carries, text or binary.
    static func json(_ frame: WireFrame?) -> JSONValue? {
        switch frame {
        case .text(let text)?: return json(text)
        case .binary(let bytes)?: return json(String(decoding: bytes, as: UTF8.self))
        case nil: return nil
        }
    }

    /// The text of a frame that must be a text frame, else nil.
    static func text(_ frame: WireFrame?) -> String? {
        if case .text(let text)? = frame { return text }
        return nil
    }

    /// True when `events` is exactly one `.malformed` event.
    static func isSingleMalformed(_ events: [NormalizedEvent]) -> Bool {
        guard events.count == 1, case .malformed = events[0] else { return false }
        return true
    }

    /// Deterministic pseudo-random bytes (a 64-bit LCG), so tests never depend on a seed.
    static func bytes(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    /// `bytes` as base64 text.
    static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }
}

extension CodecReply {
    /// The frame of a reply the codec built when it decoded the frame answered (most replies;
    /// one built when sent, `.intent`, is read with `ClientCodec.replyFrames`).
    var frame: WireFrame {
        guard case .frame(let frame) = content else {
            Issue.record("a reply built when it is sent: \(content)")
            return .text("")
        }
        return frame
    }
}
