import Foundation
import Testing
import WSCore

@testable import VoiceLoad

@Suite("Base64 decoded straight to bytes")
struct Base64DecoderTests {
    @Test func decodesWhatFoundationEncodes() {
        var random = SeededGenerator(seed: 42)
        for length in 0..<300 {
            let bytes = random.bytes(length)
            let text = Data(bytes).base64EncodedString()
            #expect(Base64Decoder.decode(text) == bytes, "length \(length)")
        }
    }

    /// The length check agrees with decoding: every length, and a character outside the
    /// alphabet (or padding) at every position of a 40-character text.
    @Test func countsWhatItWouldDecode() {
        var random = SeededGenerator(seed: 7)
        for length in 0..<120 {
            let text = Data(random.bytes(length)).base64EncodedString()
            #expect(Base64Decoder.decodedByteCount(text) == length, "length \(length)")
        }
        let valid = Data(random.bytes(30)).base64EncodedString()
        #expect(valid.utf8.count == 40)
        for position in 0..<40 {
            for bad in ["@", "-", "_", " ", "=", "\u{7F}", "[", "`", "{", ":"] {
                var characters = Array(valid)
                characters[position] = Character(bad)
                let text = String(characters)
                #expect(Base64Decoder.decodedByteCount(text) == Base64Decoder.decode(text)?.count, "\(bad) at \(position)")
            }
        }
    }

    /// The length check takes exactly the alphabet: every byte value, at every position of a
    /// 16-character text.
    @Test func checksEveryByteValueAtEveryPosition() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for value in 0...255 {
            let byte = UInt8(value)
            for position in 0..<12 {
                var characters = Array("QUJDREVGR0hJSktM".utf8)  // 16 valid characters
                characters[position] = byte
                let counted = characters.withUnsafeBufferPointer { Base64Decoder.decodedByteCount($0) }
                #expect((counted != nil) == alphabet.contains(byte), "byte \(value) at \(position)")
                if counted != nil { #expect(counted == 12) }
            }
        }
    }

    /// Stricter than Foundation, which takes misplaced padding ("AB=C", "====", "ABCD=").
    @Test(arguments: ["A", "AB", "ABC", "AB=C", "====", "A===", "AB@=", "AB C", "AB\nCD==", "ABCD=", "-_AA", "AAA=AAAA"])
    func refusesWhatIsNotPaddedStandardBase64(text: String) {
        #expect(Base64Decoder.decode(text) == nil)
        #expect(Base64Decoder.decodedByteCount(text) == nil)
    }
}
