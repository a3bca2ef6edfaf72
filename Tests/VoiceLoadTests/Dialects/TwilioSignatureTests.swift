import Foundation
import Testing

@testable import VoiceLoad

@Suite("Twilio request signature (X-Twilio-Signature): HMAC-SHA1")
struct TwilioSignatureTests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha1MatchesFIPS180Vectors() {
        #expect(hex(HMACSHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex(HMACSHA1.digest([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        let twoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(hex(HMACSHA1.digest(Array(twoBlocks.utf8))) == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    @Test func hmacMatchesRFC2202Vectors() {
        #expect(
            hex(HMACSHA1.authenticationCode(for: Array("Hi There".utf8), key: [UInt8](repeating: 0x0B, count: 20)))
                == "b617318655057264e28bc0b6fb378c8ef146be00"
        )
        #expect(
            hex(HMACSHA1.authenticationCode(for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
                == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"
        )
        // A key longer than a block is hashed first.
        #expect(
            hex(
                HMACSHA1.authenticationCode(
                    for: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                    key: [UInt8](repeating: 0xAA, count: 80)
                )
            ) == "aa4ae5e15272d00e95705637ce8a3b55ed402112"
        )
    }

    @Test func signsTheURLWithTheAuthToken() {
        let signature = TwilioSignature.signature(url: "wss://agent.example.com/media", authToken: "12345")
        #expect(Data(base64Encoded: signature)?.count == 20)
        #expect(signature != TwilioSignature.signature(url: "wss://agent.example.com/media", authToken: "12346"))
    }
}
