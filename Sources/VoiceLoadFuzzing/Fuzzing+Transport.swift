import NIOCore
import NIOWebSocket
import VoiceLoad
import WSCore

extension Fuzzing {
    /// The assembler's message limit in the assembler target: small, so that fragmented
    /// messages overflow it.
    static let assemblerMaxMessageBytes = 256

    /// The WebSocket assembler target: frames read from the bytes (`webSocketFrames(in:)`) fed
    /// to one assembler. Checks: a pong carries the ping's payload; a binary message assembled
    /// from fragments fits the limit; a violation closes with 1002 or 1009 and says why; after
    /// a delivered message nothing is being reassembled.
    static func assembling(_ payload: [UInt8]) -> FuzzOutcome {
        var assembler = WebSocketMessageAssembler(maxMessageBytes: assemblerMaxMessageBytes)
        var outcome = FuzzOutcome()
        for (index, frame) in webSocketFrames(in: payload).enumerated() {
            let wasReassembling = assembler.isReassembling
            switch assembler.receive(frame, at: MonotonicInstant(nanoseconds: UInt64(index) * 1_000)) {
            case .none:
                break
            case .deliver(let message):
                outcome.check(!assembler.isReassembling, "the assembler still reassembles after delivering")
                if wasReassembling, case .binary(let bytes) = message.frame {
                    outcome.check(bytes.count <= assemblerMaxMessageBytes, "a fragmented message of \(bytes.count) bytes was delivered")
                }
            case .sendPong(let pong):
                outcome.check(pong == frame.unmaskedData, "a pong does not carry the ping's payload")
            case .peerClosed:
                break
            case .violation(let closeCode, let message):
                outcome.accepted = false
                outcome.check([1002, 1009].contains(closeCode) && !message.isEmpty, "violation \(closeCode): '\(message)'")
            }
        }
        return outcome
    }

    /// The frames in `bytes`, each: a byte of FIN, RSV1–3 and opcode as on the wire; a byte
    /// whose top bit masks the payload and whose low 7 bits are its length (127: the length is
    /// in the next two bytes, big-endian); the masking key when masked; the payload (cut short
    /// at the end of the bytes).
    static func webSocketFrames(in bytes: [UInt8]) -> [WebSocketFrame] {
        var frames: [WebSocketFrame] = []
        var index = 0
        func take(_ count: Int) -> ArraySlice<UInt8> {
            let end = min(bytes.count, index + count)
            defer { index = end }
            return bytes[index..<end]
        }
        while index + 2 <= bytes.count, frames.count < FuzzFrameSequence.maxFrames {
            let header = bytes[index]
            let lengthByte = bytes[index + 1]
            index += 2
            var length = Int(lengthByte & 0x7F)
            if length == 127 {
                length = take(2).reduce(0) { $0 << 8 | Int($1) }
            }
            let maskKey = lengthByte & 0x80 != 0 ? WebSocketMaskingKey(Array(take(4)).padded(to: 4)) : nil
            var data = ByteBuffer()
            data.writeBytes(take(length))
            frames.append(
                WebSocketFrame(
                    fin: header & 0x80 != 0,
                    rsv1: header & 0x40 != 0,
                    rsv2: header & 0x20 != 0,
                    rsv3: header & 0x10 != 0,
                    opcode: WebSocketOpcode(encodedWebSocketOpcode: header & 0x0F) ?? .binary,
                    maskKey: maskKey,
                    data: data
                )
            )
        }
        return frames
    }

    /// The bytes of `frames` in the layout `webSocketFrames(in:)` reads (payloads unmasked,
    /// lengths up to 65535).
    static func webSocketBytes(_ frames: [(header: UInt8, payload: [UInt8])]) -> [UInt8] {
        var bytes: [UInt8] = []
        for frame in frames {
            bytes.append(frame.header)
            if frame.payload.count >= 127 {
                bytes += [127, UInt8(frame.payload.count >> 8 & 0xFF), UInt8(frame.payload.count & 0xFF)]
            } else {
                bytes.append(UInt8(frame.payload.count))
            }
            bytes += frame.payload
        }
        return bytes
    }
}

extension Array where Element == UInt8 {
    /// The array with zeros appended up to `count` bytes.
    fileprivate func padded(to count: Int) -> [UInt8] {
        self + [UInt8](repeating: 0, count: Swift.max(0, count - self.count))
    }
}
