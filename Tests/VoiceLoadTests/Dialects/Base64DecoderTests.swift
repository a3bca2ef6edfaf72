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

    /// Stricter than Foundation, which takes misplaced padding ("AB=C", "====", "ABCD=").
    @Test(arguments: ["A", "AB", "ABC", "AB=C", "====", "A===", "AB@=", "AB C", "AB\nCD==", "ABCD=", "-_AA", "AAA=AAAA"])
    func refusesWhatIsNotPaddedStandardBase64(text: String) {
        #expect(Base64Decoder.decode(text) == nil)
    }
}
