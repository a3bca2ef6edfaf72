import Foundation
import Testing

@testable import VoiceLoad

@Suite("PreparedUtterance")
struct PreparedUtteranceTests {
    private static let windowUs: Int64 = 10_000

    /// Writes a 16 kHz mono PCM16 WAV of `parts` into `directory` and returns its path.
    private func writeWAV(_ parts: [[Float]], named name: String, in directory: String) throws -> String {
        let path = "\(directory)/\(name)"
        try AudioFixtures.writeMonoWAV(path: path, signal: parts.flatMap { $0 }, rateHz: 16_000)
        return path
    }

    private func tone(_ durationMs: Int, frequencyHz: Double = 440) -> [Float] {
        AudioFixtures.tone(frequencyHz: frequencyHz, amplitude: 0.5, durationMs: durationMs, rateHz: 16_000)
    }

    private func silence(_ durationMs: Int) -> [Float] {
        AudioFixtures.silence(durationMs: durationMs, rateHz: 16_000)
    }

    @Test("PCM16 16 kHz in 40 ms frames: 1280-byte frames, last one padded with 0x00")
    func pcm16Framing() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        let signal = tone(1_610)
        let path = try writeWAV([signal], named: "tone.wav", in: directory)

        let utterance = try PreparedUtterance.prepare(path: path, format: .pcm16(16_000), frameMs: 40)

        #expect(utterance.frames.count == 41)  // 1610 ms = 40 whole frames + 10 ms
        #expect(utterance.frames.allSatisfy { $0.count == 1_280 })
        #expect(utterance.durationMs == 1_640)
        #expect(utterance.sourcePath == path)
        #expect(utterance.frameMs == 40)
        let last = try #require(utterance.frames.last)
        #expect(last[320...].allSatisfy { $0 == 0x00 })
        #expect(last[..<320].contains { $0 != 0x00 })
        // Same rate and encoding: the frames carry the file's samples unchanged.
        let sent = AudioEncoder.decode(utterance.frames.flatMap { $0 }, format: .pcm16(16_000))
        #expect(sent.count == 41 * 640)
        #expect(sent.prefix(signal.count).elementsEqual(AudioFixtures.pcm16(signal)))
    }

    @Test("µ-law 8 kHz in 20 ms frames: 160-byte frames, last one padded with 0xFF")
    func mulawFraming() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        let path = try writeWAV([tone(1_610)], named: "tone.wav", in: directory)

        let utterance = try PreparedUtterance.prepare(path: path, format: .mulaw8k, frameMs: 20)

        #expect(utterance.frames.count == 81)  // 1610 ms = 80 whole frames + 10 ms
        #expect(utterance.frames.allSatisfy { $0.count == 160 })
        #expect(utterance.durationMs == 1_620)
        let last = try #require(utterance.frames.last)
        #expect(last[80...].allSatisfy { $0 == 0xFF })
        #expect(last[..<80].contains { $0 != 0xFF })
    }

    @Test("silenceFrame is one frame of the format's silence byte")
    func silenceFrames() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        let path = try writeWAV([silence(100), tone(300), silence(100)], named: "tone.wav", in: directory)
        let pcm = try PreparedUtterance.prepare(path: path, format: .pcm16(16_000), frameMs: 40)
        #expect(pcm.silenceFrame().count == 1_280)
        #expect(pcm.silenceFrame().allSatisfy { $0 == 0x00 })
        let mulaw = try PreparedUtterance.prepare(path: path, format: .mulaw8k, frameMs: 20)
        #expect(mulaw.silenceFrame().count == 160)
        #expect(mulaw.silenceFrame().allSatisfy { $0 == 0xFF })
    }

    @Test("speech boundaries are measured on the audio as sent, after resampling and encoding")
    func boundariesAfterEncoding() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        // A 6 kHz burst (gone below an 8 kHz stream's 4 kHz Nyquist limit), then a 500 Hz tone.
        let path = try writeWAV(
            [silence(300), tone(300, frequencyHz: 6_000), tone(800, frequencyHz: 500), silence(300)],
            named: "hf.wav",
            in: directory
        )

        let wide = try PreparedUtterance.prepare(path: path, format: .pcm16(16_000), frameMs: 40)
        #expect(abs(wide.boundaries.speechStartUs - 300_000) <= Self.windowUs)
        #expect(abs(wide.boundaries.speechEndUs - 1_400_000) <= Self.windowUs)

        for format in [AudioFormat.mulaw8k, .pcm16(8_000)] {
            let narrow = try PreparedUtterance.prepare(path: path, format: format, frameMs: 20)
            #expect(abs(narrow.boundaries.speechStartUs - 600_000) <= 2 * Self.windowUs, "\(format)")
            #expect(abs(narrow.boundaries.speechEndUs - 1_400_000) <= 2 * Self.windowUs, "\(format)")
            let sent = AudioEncoder.decode(narrow.frames.flatMap { $0 }, format: format)
            #expect(SpeechDetector().boundaries(of: sent, sampleRateHz: 8_000) == narrow.boundaries)
        }
    }

    @Test("overrides replace the detected start and end")
    func overrides() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        let path = try writeWAV([silence(300), tone(800), silence(300)], named: "speech.wav", in: directory)

        let both = try PreparedUtterance.prepare(
            path: path,
            format: .pcm16(24_000),
            frameMs: 40,
            overrides: (startMs: 100, endMs: 900)
        )
        #expect(both.boundaries == SpeechBoundaries(speechStartUs: 100_000, speechEndUs: 900_000))

        let startOnly = try PreparedUtterance.prepare(
            path: path,
            format: .pcm16(24_000),
            frameMs: 40,
            overrides: (startMs: 250, endMs: nil)
        )
        #expect(startOnly.boundaries.speechStartUs == 250_000)
        #expect(abs(startOnly.boundaries.speechEndUs - 1_100_000) <= Self.windowUs)

        let endOnly = try PreparedUtterance.prepare(
            path: path,
            format: .pcm16(24_000),
            frameMs: 40,
            overrides: (startMs: nil, endMs: 1_200)
        )
        #expect(abs(endOnly.boundaries.speechStartUs - 300_000) <= Self.windowUs)
        #expect(endOnly.boundaries.speechEndUs == 1_200_000)
    }

    @Test("a silent file without overrides fails with no speech found; with overrides it is used")
    func silentFile() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        let path = try writeWAV([silence(1_000)], named: "silent.wav", in: directory)

        #expect(throws: AudioFileError.noSpeechFound(path: path)) {
            try PreparedUtterance.prepare(path: path, format: .pcm16(16_000), frameMs: 40)
        }
        let message = AudioFileError.noSpeechFound(path: path).description
        #expect(message.contains("no speech found") && message.contains(path))

        let overridden = try PreparedUtterance.prepare(
            path: path,
            format: .pcm16(16_000),
            frameMs: 40,
            overrides: (startMs: 200, endMs: nil)
        )
        #expect(overridden.boundaries == SpeechBoundaries(speechStartUs: 200_000, speechEndUs: 1_000_000))
    }

    @Test("out-of-range overrides and bad frame lengths are errors naming the file")
    func invalidInputs() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        let path = try writeWAV([silence(200), tone(500), silence(300)], named: "speech.wav", in: directory)

        for overrides: (startMs: Int?, endMs: Int?) in [(900, 100), (-5, 500), (nil, 5_000)] {
            do {
                _ = try PreparedUtterance.prepare(
                    path: path,
                    format: .pcm16(16_000),
                    frameMs: 40,
                    overrides: overrides
                )
                Issue.record("expected an error for \(overrides)")
            } catch {
                guard case .invalidSpeechOverride = error else {
                    Issue.record("expected invalidSpeechOverride, got \(error)")
                    continue
                }
                #expect(error.description.contains(path))
            }
        }
        #expect(throws: AudioFileError.invalidFrameDuration(path: path, frameMs: 0, format: .pcm16(16_000))) {
            try PreparedUtterance.prepare(path: path, format: .pcm16(16_000), frameMs: 0)
        }
        #expect(throws: AudioFileError.invalidFrameDuration(path: path, frameMs: 15, format: .pcm16(44_100))) {
            try PreparedUtterance.prepare(path: path, format: .pcm16(44_100), frameMs: 15)
        }
        let missing = "\(directory)/missing.wav"
        #expect(throws: AudioFileError.fileNotFound(path: missing)) {
            try PreparedUtterance.prepare(path: missing, format: .pcm16(16_000), frameMs: 40)
        }
    }

    @Test("frameIndex(containingUs:) maps clip offsets to 0-based frames")
    func frameIndex() throws {
        let boundaries = SpeechBoundaries(speechStartUs: 50_000, speechEndUs: 120_000)
        let utterance = PreparedUtterance(
            format: .pcm16(16_000),
            frameMs: 40,
            frames: [[UInt8]](repeating: [UInt8](repeating: 0, count: 1_280), count: 5),
            boundaries: boundaries,
            sourcePath: "memory"
        )
        #expect(utterance.frameIndex(containingUs: 0) == 0)
        #expect(utterance.frameIndex(containingUs: 39_999) == 0)
        #expect(utterance.frameIndex(containingUs: 40_000) == 1)
        #expect(utterance.frameIndex(containingUs: 199_999) == 4)
        #expect(utterance.frameIndex(containingUs: 10_000_000) == 4)
        #expect(utterance.frameIndex(containingUs: -1) == 0)
        // The last speech sample is at 119.99 ms, in frame 2 ([80, 120) ms).
        #expect(utterance.lastSpeechFrameIndex == 2)
    }

    @Test("scenarios/audio/hello.wav has speech inside the clip, after its 300 ms lead-in")
    func helloScenarioAudio() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Audio
            .deletingLastPathComponent()  // VoiceLoadTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
        let path = root.appendingPathComponent("scenarios/audio/hello.wav").path

        for (format, frameMs) in [(AudioFormat.pcm16(16_000), 40), (.mulaw8k, 20), (.pcm16(24_000), 40)] {
            let utterance = try PreparedUtterance.prepare(path: path, format: format, frameMs: frameMs)
            let clipEndUs = Int64(utterance.durationMs) * 1_000
            #expect(utterance.boundaries.speechStartUs >= 250_000, "\(format)")
            #expect(utterance.boundaries.speechEndUs <= clipEndUs - 250_000, "\(format)")
            #expect(utterance.boundaries.speechDurationUs > 1_000_000, "\(format)")
        }
    }
}
