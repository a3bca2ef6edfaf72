import NIOCore
import VoiceLoad
import WSCore

/// The frames a fault sends that no dialect would: built once per simulator and shared by
/// every session (an oversized frame is a buffer of spaces, not rebuilt per send).
struct FaultFrames: Sendable {
    /// What kind of broken frame a session sends (`SimulatorSession.Action.sendInvalid`).
    enum Kind: Sendable, Hashable {
        /// One text frame of invalid JSON.
        case malformedJSON
        /// One text frame of this many bytes: a JSON string of spaces.
        case oversized(bytes: Int)
    }

    /// Truncated JSON, shaped like an audio message so a client has to parse it to notice.
    static let malformedText = #"{"type": "audio", "payload": {"#

    private let oversized: [Int: EncodedFrame]

    init(plan: FaultPlan) {
        var oversized: [Int: EncodedFrame] = [:]
        for case .oversized(let bytes) in plan.faults {
            oversized[bytes] = Self.oversizedFrame(bytes: bytes)
        }
        self.oversized = oversized
    }

    func frame(_ kind: Kind) -> EncodedFrame {
        switch kind {
        case .malformedJSON:
            return EncodedFrame(.text(Self.malformedText))
        case .oversized(let bytes):
            return oversized[bytes] ?? Self.oversizedFrame(bytes: bytes)
        }
    }

    /// `"` + spaces + `"`: valid JSON text of exactly `bytes` bytes (at least 2).
    static func oversizedFrame(bytes: Int) -> EncodedFrame {
        var buffer = ByteBufferAllocator().buffer(capacity: bytes)
        buffer.writeInteger(UInt8(ascii: "\""))
        buffer.writeRepeatingByte(UInt8(ascii: " "), count: max(0, bytes - 2))
        buffer.writeInteger(UInt8(ascii: "\""))
        return EncodedFrame(kind: .text, payload: buffer)
    }
}
