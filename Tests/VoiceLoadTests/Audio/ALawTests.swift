import Testing

@testable import VoiceLoad

@Suite("A-law (G.711)")
struct ALawTests {
    /// Codes and decoded values from CPython's audioop.lin2alaw / alaw2lin (the reference g711.c).
    @Test(
        "encode and decode match the reference codec",
        arguments: [
            (Int16(0), UInt8(0xD5), Int16(8)), (1, 0xD5, 8), (-1, 0x55, -8), (100, 0xD3, 104), (-100, 0x53, -104),
            (1_000, 0xFA, 1_008), (-1_000, 0x7A, -1_008), (8_000, 0x8A, 8_064), (-8_000, 0x0A, -8_064),
            (32_767, 0xAA, 32_256), (-32_768, 0x2A, -32_256),
        ] as [(Int16, UInt8, Int16)]
    )
    func reference(sample: Int16, code: UInt8, decoded: Int16) {
        #expect(ALaw.encode(sample) == code)
        #expect(ALaw.decode(code) == decoded)
    }

    @Test("decode then encode is the identity on every code; silence is 0xD5")
    func codesStable() {
        for code in UInt8.min...UInt8.max {
            #expect(ALaw.encode(ALaw.decode(code)) == code, "code \(code)")
        }
        #expect(AudioFormat.alaw8k.silenceByte == ALaw.encode(0))
        #expect(AudioFormat.alaw8k.description == "A-law 8000 Hz" && AudioFormat.alaw8k.bytesPerSample == 1)
    }

    @Test("AudioEncoder A-law round trip keeps a tone's level within 1%")
    func toneRoundTrip() {
        let tone = AudioFixtures.pcm16(AudioFixtures.tone(frequencyHz: 440, amplitude: 0.5, durationMs: 200, rateHz: 8_000))
        let decoded = AudioEncoder.decode(AudioEncoder.encode(tone, as: .alaw8k), format: .alaw8k)
        #expect(decoded.count == tone.count)
        let original = AudioFixtures.rms(tone)
        #expect(abs(AudioFixtures.rms(decoded) - original) / original < 0.01)
    }

    @Test("a dialect file may stream and read A-law")
    func dialectFile() throws {
        let yaml = """
            dialect: alaw-phone
            audio:
              input: {encoding: alaw, sample_rate: 8000, frame_ms: 20, transport: binary}
              output: {encoding: alaw, sample_rate: 8000, extract: [{when: {"@frame": binary}}]}
            """
        let dialect = try CustomDialect.parse(yaml: yaml, path: "alaw.yaml", environment: [:])
        #expect(dialect.inputFormat == .alaw8k && dialect.outputFormat == .alaw8k)
    }
}
