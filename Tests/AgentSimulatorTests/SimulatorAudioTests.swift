import Foundation
import SimulatorAudio
import Testing
import VoiceLoad

/// The greeting and reply compiled into the binary are the repository's WAV files, byte for
/// byte, and decode from memory to what the files decode to.
@Suite("Simulator audio compiled in")
struct SimulatorAudioTests {
    /// `Sources/SimulatorAudio/Resources/NAME`, found from this file's path.
    private static func resourcePath(_ name: String, file: String = #filePath) -> String {
        URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/SimulatorAudio/Resources/\(name)").path
    }

    @Test("greeting and reply: the files' bytes, decoded alike", arguments: ["agent-greeting.wav", "agent-reply.wav"])
    func embeddedMatchesFile(name: String) throws {
        let path = Self.resourcePath(name)
        let embedded = name == "agent-greeting.wav" ? SimulatorAudio.greetingWAV : SimulatorAudio.replyWAV
        #expect(embedded == (try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))))
        let clip = try WAVReader.read(bytes: embedded, name: name)
        #expect(clip == (try WAVReader.read(path: path)))
        // scripts/make-audio.sh makes both at 24 kHz.
        #expect(clip.sampleRateHz == 24_000)
    }
}
