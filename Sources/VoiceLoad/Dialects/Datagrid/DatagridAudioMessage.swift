import Foundation
import WSCore

/// The Datagrid `audio` message, `{"type":"audio","payload":{"data":"<b64>"}}`, on its hot
/// paths: built by string concatenation around the base64 text (no `JSONSerialization`), and
/// recognized by a byte scan that skips the general JSON parse.
///
/// The scan accepts only the exact message shape: an object whose two members are
/// `"type":"audio"` and `"payload":{"data":"…"}` in either order, JSON whitespace anywhere
/// between tokens, and a data string made of base64 characters and the escape `\/` (which
/// some JSON encoders emit for `/`). Anything else, including valid JSON of another shape,
/// is left to the general path, so the two paths always agree on what a frame means.
enum DatagridAudioMessage {
    /// The JSON text of an audio message carrying `audio`.
    static func text(audio: [UInt8]) -> String {
        #"{"type":"audio","payload":{"data":""# + Data(audio).base64EncodedString() + #""}}"#
    }

    /// The base64 text (with `\/` unescaped) of the audio message in `frame`, or nil when the
    /// frame is not exactly an audio message as described above.
    static func base64Data(in frame: WireFrame) -> String? {
        switch frame {
        case .text(let string):
            // Native strings always have contiguous UTF-8; a bridged one takes the general path.
            return string.utf8.withContiguousStorageIfAvailable { scan($0) } ?? nil
        case .binary(let bytes):
            return bytes.withUnsafeBufferPointer { scan($0) }
        }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var cursor = Cursor(bytes: bytes)
        cursor.skipWhitespace()
        guard cursor.consume(ASCII.openBrace) else { return nil }
        var sawType = false
        var base64: String?
        for memberIndex in 0..<2 {
            cursor.skipWhitespace()
            if memberIndex == 1 {
                guard cursor.consume(ASCII.comma) else { return nil }
                cursor.skipWhitespace()
            }
            if cursor.consume(Literal.typeKey) {
                guard !sawType, cursor.consumeColon(), cursor.consume(Literal.audioValue) else { return nil }
                sawType = true
            } else if cursor.consume(Literal.payloadKey) {
                guard base64 == nil, cursor.consumeColon(), cursor.consume(ASCII.openBrace) else { return nil }
                cursor.skipWhitespace()
                guard cursor.consume(Literal.dataKey), cursor.consumeColon(),
                    let value = cursor.base64String()
                else { return nil }
                cursor.skipWhitespace()
                guard cursor.consume(ASCII.closeBrace) else { return nil }
                base64 = value
            } else {
                return nil
            }
        }
        cursor.skipWhitespace()
        guard cursor.consume(ASCII.closeBrace) else { return nil }
        cursor.skipWhitespace()
        guard cursor.isAtEnd, sawType else { return nil }
        return base64
    }

    private enum ASCII {
        static let openBrace = UInt8(ascii: "{")
        static let closeBrace = UInt8(ascii: "}")
        static let comma = UInt8(ascii: ",")
        static let colon = UInt8(ascii: ":")
        static let quote = UInt8(ascii: "\"")
        static let backslash = UInt8(ascii: "\\")
        static let slash = UInt8(ascii: "/")
    }

    private enum Literal {
        static let typeKey = Array(#""type""#.utf8)
        static let audioValue = Array(#""audio""#.utf8)
        static let payloadKey = Array(#""payload""#.utf8)
        static let dataKey = Array(#""data""#.utf8)
    }

    /// A read position in the frame's bytes.
    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func consume(_ literal: [UInt8]) -> Bool {
            guard bytes.count - index >= literal.count else { return false }
            for (offset, byte) in literal.enumerated() where bytes[index + offset] != byte {
                return false
            }
            index += literal.count
            return true
        }

        /// `ws* ':' ws*`
        mutating func consumeColon() -> Bool {
            skipWhitespace()
            guard consume(ASCII.colon) else { return false }
            skipWhitespace()
            return true
        }

        /// A JSON string made of base64 characters and `\/`, with `\/` unescaped; nil when the
        /// string holds anything else or is not closed.
        mutating func base64String() -> String? {
            guard consume(ASCII.quote) else { return nil }
            let start = index
            var hasEscape = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == ASCII.quote {
                    let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    return hasEscape ? Cursor.unescapingSlashes(raw) : String(decoding: raw, as: UTF8.self)
                }
                if byte == ASCII.backslash {
                    guard index + 1 < bytes.count, bytes[index + 1] == ASCII.slash else { return nil }
                    hasEscape = true
                    index += 2
                } else if Cursor.isBase64Character(byte) {
                    index += 1
                } else {
                    return nil
                }
            }
            return nil
        }

        private static func isBase64Character(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"),
                UInt8(ascii: "="):
                return true
            default:
                return false
            }
        }

        /// `raw` with every `\/` replaced by `/` (the only escape the scan lets through).
        private static func unescapingSlashes(_ raw: UnsafeBufferPointer<UInt8>) -> String {
            var unescaped: [UInt8] = []
            unescaped.reserveCapacity(raw.count)
            for byte in raw where byte != ASCII.backslash {
                unescaped.append(byte)
            }
            return String(decoding: unescaped, as: UTF8.self)
        }
    }
}
