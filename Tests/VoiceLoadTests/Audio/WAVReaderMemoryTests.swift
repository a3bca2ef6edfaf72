import CSndFile
import Foundation
import Testing

@testable import VoiceLoad

/// `WAVReader.read(bytes:name:)`: a whole file in memory (libsndfile's virtual I/O) decodes as
/// the same file on disk does, and fails the same ways, naming `name`.
@Suite("WAVReader in memory")
struct WAVReaderMemoryTests {
    @Test("a file's bytes decode to the clip the file does: WAV PCM16 and float, FLAC, Ogg Vorbis, stereo")
    func bytesMatchFile() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        let tone = AudioFixtures.tone(frequencyHz: 440, amplitude: 0.5, durationMs: 300, rateHz: 24_000)
        let cases: [(name: String, format: Int)] = [
            ("pcm16.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16),
            ("float.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT),
            ("tone.flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16),
            // Ogg is read with seeks back and forth: the source's seek and tell at work.
            ("tone.ogg", SF_FORMAT_OGG | SF_FORMAT_VORBIS),
        ]
        for entry in cases {
            let path = "\(directory)/\(entry.name)"
            try AudioFixtures.write(path: path, channels: [tone, tone.map { $0 * 0.5 }], rateHz: 24_000, format: entry.format)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let fromFile = try WAVReader.read(path: path)
            let fromMemory = try WAVReader.read(bytes: bytes, name: entry.name)
            #expect(fromMemory == fromFile, "\(entry.name)")
            #expect(!fromMemory.samples.isEmpty, "\(entry.name)")
        }
    }

    /// Bytes that are no audio file: noise, nothing, a WAV header cut short.
    enum NotAudio: String, CaseIterable, Sendable {
        case noise = "noise.wav"
        case nothing = "nothing.wav"
        case truncated = "truncated.wav"

        var bytes: [UInt8] {
            switch self {
            case .noise: return AudioFixtures.pseudoRandomBytes(count: 4_096, seed: 7)
            case .nothing: return []
            case .truncated: return Array("RIFF\u{10}\u{0}\u{0}\u{0}WAVEfmt ".utf8)
            }
        }
    }

    @Test("bytes that are no audio file are unreadable, with libsndfile's reason and the name", arguments: NotAudio.allCases)
    func notAudio(input: NotAudio) throws {
        let (name, bytes) = (input.rawValue, input.bytes)
        do {
            _ = try WAVReader.read(bytes: bytes, name: name)
            Issue.record("\(name): expected an error")
        } catch {
            guard case .unreadable(let errorName, let reason) = error else {
                Issue.record("\(name): expected .unreadable, got \(error)")
                return
            }
            #expect(errorName == name)
            #expect(!reason.isEmpty, "\(name)")
            #expect(error.description.hasPrefix("cannot read audio file \(name): "))
        }
    }

    @Test("a WAV with no frames is emptyAudio")
    func emptyAudio() throws {
        let directory = try AudioFixtures.makeTemporaryDirectory()
        defer { AudioFixtures.removeDirectory(directory) }
        let path = "\(directory)/empty.wav"
        try AudioFixtures.write(path: path, channels: [[]], rateHz: 16_000, format: SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(throws: AudioFileError.emptyAudio(path: "empty.wav")) {
            try WAVReader.read(bytes: bytes, name: "empty.wav")
        }
    }
}
