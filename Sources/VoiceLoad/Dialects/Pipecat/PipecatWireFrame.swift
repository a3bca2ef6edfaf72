import Foundation
import SwiftProtobuf
import WSCore

/// Pipecat's wire message, `pipecat.Frame` (proto/pipecat/frames.proto), as both sides of the
/// `pipecat-protobuf` dialect build and read it: one protobuf `Frame` per binary WebSocket
/// message, whose oneof holds a text, audio, transcription, message or interruption frame
/// (docs/dialects.md).
enum PipecatWireFrame {
    /// An audio frame: PCM16 `audio` at `sampleRateHz`, mono unless `channels` says otherwise.
    static func audio(_ bytes: [UInt8], sampleRateHz: Int, channels: Int = 1) -> WireFrame {
        var audio = Pipecat_AudioRawFrame()
        audio.audio = Data(bytes)
        audio.sampleRate = UInt32(clamping: sampleRateHz)
        audio.numChannels = UInt32(clamping: channels)
        return encoded(.audio(audio))
    }

    /// An interruption frame, named as Pipecat's serializer names one (`InterruptionFrame#0`).
    static func interruption() -> WireFrame {
        var interruption = Pipecat_InterruptionFrame()
        interruption.name = "InterruptionFrame#0"
        return encoded(.interruption(interruption))
    }

    /// A text frame (what the bot or the user writes).
    static func text(_ text: String) -> WireFrame {
        var frame = Pipecat_TextFrame()
        frame.text = text
        return encoded(.text(frame))
    }

    /// A transcription frame: what `userID` said, final.
    static func transcription(_ text: String, userID: String, timestamp: String) -> WireFrame {
        var frame = Pipecat_TranscriptionFrame()
        frame.text = text
        frame.userID = userID
        frame.timestamp = timestamp
        return encoded(.transcription(frame))
    }

    /// A transport message: `json` is its JSON text (`MessageFrame.data`).
    static func message(json: String) -> WireFrame {
        var frame = Pipecat_MessageFrame()
        frame.data = json
        return encoded(.message(frame))
    }

    /// The frame inside one WebSocket message, or why there is none: Pipecat sends binary
    /// messages only, and a message whose oneof is unset carries nothing vload knows.
    static func decode(_ wire: WireFrame) -> Result<Pipecat_Frame.OneOf_Frame, PipecatFrameError> {
        guard case .binary(let bytes) = wire else { return .failure(.textMessage) }
        let frame: Pipecat_Frame
        do {
            frame = try Pipecat_Frame(serializedBytes: bytes)
        } catch {
            return .failure(.notProtobuf("\(error)"))
        }
        guard let content = frame.frame else { return .failure(.noFrame) }
        return .success(content)
    }

    private static func encoded(_ content: Pipecat_Frame.OneOf_Frame) -> WireFrame {
        var frame = Pipecat_Frame()
        frame.frame = content
        // Serializing a message built here cannot fail: it has no required fields and no maps.
        let bytes: [UInt8] = (try? frame.serializedBytes()) ?? []
        return .binary(bytes)
    }
}

/// Why a WebSocket message is not a Pipecat frame.
enum PipecatFrameError: Error, Sendable, Hashable {
    /// A text message: the protobuf serializer only ever sends binary ones.
    case textMessage
    /// Binary, but not a `pipecat.Frame`.
    case notProtobuf(String)
    /// A `pipecat.Frame` with no frame set (or only a kind this version does not know).
    case noFrame

    var reason: String {
        switch self {
        case .textMessage: return "a text message; pipecat-protobuf frames are binary"
        case .notProtobuf(let detail): return "not a pipecat.Frame protobuf: \(detail)"
        case .noFrame: return "a pipecat.Frame with no frame set"
        }
    }
}
