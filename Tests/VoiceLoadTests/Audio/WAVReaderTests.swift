import CSndFile
import Foundation
import Testing

@testable import VoiceLoad

/// WAV sample encodings the reader must accept, with their libsndfile subtype.
enum WAVTestEncoding: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case pcmU8, pcm16, pcm24, pcm32, float32, float64, ulaw, alaw

    var subtype: Int {
        switch self {
        case .pcmU8: return SF_FORMAT_PCM_U8
        case .pcm16: return SF_FORMAT_PCM_16
        case .pcm24: return SF_FORMAT_PCM_24
        case .pcm32: return SF_FORMAT_PCM_32
        case .float32: return SF_FORMAT_FLOAT
        case .float64: return SF_FORMAT_DOUBLE
        case .ulaw: return SF_FORMAT_ULAW
        case .alaw: return SF_FORMAT_ALAW
        }
    }

    var testDescription: String { rawValue }
}

@Suite("WAVReader")
struct WAVReaderTests {
    static let rates = [8_000, 16_000, 44_100, 48_000]
    /// Peak of the mono mix of every fixture.
    static let mixAmplitude = 0.5
    static let expectedRMS = mixAmplitude / 2.0.squareRoot()
    /// Relative tolerance on the peak: A-law's step near 0.5 full scale is 1/64 (3%).
    static let peakTolerance = 0.04

    @Test("reads every WAV encoding at every rate, mono and stereo, downmixed", arguments: WAVTestEncoding.allCases, rates)
    func readsEncodingAndRate(encoding: WAVTestEncoding, rateHz: Int) throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        let tone = AudioFixtures.tone(frequencyHz: 440, amplitude: 1, durationMs: 500, rateHz: rateHz)
        let layouts: [(name: String, channels: [[Float]])] = [
            ("mono", [tone.map { $0 * Float(Self.mixAmplitude) }]),
            // Unequal channels: only an average gives 0.5 (left alone 0.75, a sum 1.0).
            ("stereo", [tone.map { $0 * 0.75 }, tone.map { $0 * 0.25 }]),
        ]
        for layout in layouts {
            let path = "\(directory)/\(encoding.rawValue)-\(rateHz)-\(layout.name).wav"
            try AudioFixtures.write(
                path: path,
                channels: layout.channels,
                rateHz: rateHz,
                format: SF_FORMAT_WAV | encoding.subtype
            )

            let clip = try WAVReader.read(path: path)

            #expect(clip.sampleRateHz == rateHz, "\(layout.name)")
            #expect(clip.samples.count == rateHz / 2, "\(layout.name)")
            #expect(abs(clip.durationMs - 500) < 0.001, "\(layout.name)")
            let rms = AudioFixtures.rms(clip.samples)
            #expect(abs(rms - Self.expectedRMS) / Self.expectedRMS < 0.02, "\(layout.name): RMS \(rms)")
            let peak = Double(clip.samples.map { abs(Int($0)) }.max() ?? 0) / 32_768
            #expect(abs(peak - Self.mixAmplitude) / Self.mixAmplitude < Self.peakTolerance, "\(layout.name): peak \(peak)")
        }
    }

    @Test("16-bit PCM reads back sample-exact")
    func pcm16IsExact() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        let samples: [Int16] = [0, 1, -1, 12_345, -12_345, .max, .min, 256, -256]
        let path = "\(directory)/exact.wav"
        try AudioFixtures.writeMonoWAV(path: path, samples: samples, rateHz: 16_000)
        #expect(try WAVReader.read(path: path).samples == samples)
    }

    @Test("multichannel audio is averaged to mono")
    func downmixesMultichannel() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        let tone = AudioFixtures.tone(frequencyHz: 440, amplitude: 1, durationMs: 200, rateHz: 16_000)
        let path = "\(directory)/three.wav"
        try AudioFixtures.write(
            path: path,
            channels: [tone.map { $0 * 0.9 }, tone.map { $0 * 0.3 }, tone.map { $0 * -0.3 }],
            rateHz: 16_000,
            format: SF_FORMAT_WAV | SF_FORMAT_FLOAT
        )
        let clip = try WAVReader.read(path: path)
        let expected = AudioFixtures.pcm16(tone.map { $0 * 0.3 })
        #expect(clip.samples.count == expected.count)
        let maxError = zip(clip.samples, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(maxError <= 2)
    }

    @Test("FLAC and Ogg Vorbis files read through the same path")
    func readsFLACAndOgg() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        let tone = AudioFixtures.tone(frequencyHz: 440, amplitude: 0.5, durationMs: 500, rateHz: 48_000)
        let cases: [(name: String, format: Int, tolerance: Double)] = [
            ("tone.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 0.01),
            ("tone.ogg", SF_FORMAT_OGG | SF_FORMAT_VORBIS, 0.1),
        ]
        for entry in cases {
            let path = "\(directory)/\(entry.name)"
            try AudioFixtures.write(path: path, channels: [tone, tone], rateHz: 48_000, format: entry.format)
            let clip = try WAVReader.read(path: path)
            #expect(clip.sampleRateHz == 48_000, "\(entry.name)")
            #expect(abs(clip.durationMs - 500) < 1, "\(entry.name): \(clip.durationMs) ms")
            let rms = AudioFixtures.rms(clip.samples)
            #expect(abs(rms - Self.expectedRMS) / Self.expectedRMS < entry.tolerance, "\(entry.name): RMS \(rms)")
        }
    }

    @Test("a missing file is fileNotFound, naming the path")
    func missingFile() throws {
        let path = "/nonexistent-vload-dir/missing.wav"
        #expect(throws: AudioFileError.fileNotFound(path: path)) {
            try WAVReader.read(path: path)
        }
        #expect(AudioFileError.fileNotFound(path: path).description.contains(path))
    }

    @Test("random bytes named .wav are unreadable, with libsndfile's reason and the path")
    func corruptFile() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        let path = "\(directory)/corrupt.wav"
        let bytes = AudioFixtures.pseudoRandomBytes(count: 4_096, seed: 42)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            _ = try WAVReader.read(path: path)
            Issue.record("expected an error")
        } catch {
            guard case .unreadable(let errorPath, let reason) = error else {
                Issue.record("expected .unreadable, got \(error)")
                return
            }
            #expect(errorPath == path)
            #expect(!reason.isEmpty)
            #expect(error.description.contains(path))
            #expect(error.description.contains(reason))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("a WAV header without data is unreadable, with libsndfile's reason")
    func truncatedHeader() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        let path = "\(directory)/truncated.wav"
        try Data("RIFF\u{10}\u{0}\u{0}\u{0}WAVEfmt ".utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try WAVReader.read(path: path)
            Issue.record("expected an error")
        } catch {
            guard case .unreadable(_, let reason) = error else {
                Issue.record("expected .unreadable, got \(error)")
                return
            }
            #expect(reason.contains("WAV"), "reason: \(reason)")
            #expect(error.description.hasPrefix("cannot read audio file \(path): "))
        }
    }

    @Test("a directory is unreadable, not a crash")
    func directoryIsUnreadable() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        #expect(throws: AudioFileError.unreadable(path: directory, reason: "is a directory")) {
            try WAVReader.read(path: directory)
        }
    }

    @Test("a WAV with no frames is emptyAudio")
    func emptyFile() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        let path = "\(directory)/empty.wav"
        try AudioFixtures.write(path: path, channels: [[]], rateHz: 16_000, format: SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        #expect(throws: AudioFileError.emptyAudio(path: path)) {
            try WAVReader.read(path: path)
        }
        #expect(AudioFileError.emptyAudio(path: path).description.contains(path))
    }
}
