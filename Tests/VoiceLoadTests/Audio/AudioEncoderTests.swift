import Testing

@testable import VoiceLoad

@Suite("AudioEncoder and MuLaw")
struct AudioEncoderTests {
    @Test("PCM16 encodes little-endian and round-trips exactly")
    func pcm16RoundTrip() {
        let samples: [Int16] = [0, 1, -1, 0x1234, -0x1234, .max, .min]
        let bytes = AudioEncoder.encode(samples, as: .pcm16(16_000))
        #expect(bytes.count == samples.count * 2)
        #expect(Array(bytes[6..<8]) == [0x34, 0x12])
        #expect(Array(bytes[2..<4]) == [0x01, 0x00])
        #expect(Array(bytes[4..<6]) == [0xFF, 0xFF])
        #expect(AudioEncoder.decode(bytes, format: .pcm16(16_000)) == samples)
    }

    @Test("PCM16 decode ignores a trailing odd byte")
    func pcm16OddByte() {
        #expect(AudioEncoder.decode([0x01, 0x00, 0x7F], format: .pcm16(8_000)) == [1])
    }

    @Test("µ-law encodes one byte a sample; silence is 0xFF")
    func mulawEncoding() {
        let bytes = AudioEncoder.encode([0, 0, 1_000, -1_000], as: .mulaw8k)
        #expect(bytes.count == 4)
        #expect(bytes[0] == AudioFormat.mulaw8k.silenceByte)
        #expect(AudioEncoder.decode(bytes, format: .mulaw8k) == bytes.map(MuLaw.decode))
    }

    @Test("µ-law round trip stays within G.711's quantization step")
    func mulawErrorBound() {
        for value in stride(from: -32_768, through: 32_767, by: 7) {
            let sample = Int16(value)
            let decoded = Int(MuLaw.decode(MuLaw.encode(sample)))
            let magnitude = min(abs(value), 32_635)
            // Decoding returns the middle of the segment's step: the error is at most half a
            // step, 4 in the lowest segment up to 512 in the top one (≈ magnitude / 32).
            let bound = max(8, magnitude / 16)
            #expect(abs(decoded - min(max(value, -32_635), 32_635)) <= bound, "sample \(value) → \(decoded)")
        }
    }

    @Test("µ-law decode then encode is the identity on every code but negative zero")
    func mulawCodesStable() {
        for code in UInt8.min...UInt8.max where code != 0x7F {
            #expect(MuLaw.encode(MuLaw.decode(code)) == code, "code \(code)")
        }
    }

    @Test("AudioEncoder µ-law round trip keeps a tone's level within 1%")
    func mulawToneRoundTrip() {
        let tone = AudioFixtures.pcm16(
            AudioFixtures.tone(frequencyHz: 440, amplitude: 0.5, durationMs: 200, rateHz: 8_000)
        )
        let decoded = AudioEncoder.decode(AudioEncoder.encode(tone, as: .mulaw8k), format: .mulaw8k)
        #expect(decoded.count == tone.count)
        let original = AudioFixtures.rms(tone)
        #expect(abs(AudioFixtures.rms(decoded) - original) / original < 0.01)
    }
}
