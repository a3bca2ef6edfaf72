import Foundation
import VoiceLoad

extension Fuzzing {
    /// The audio file target: the bytes written to a temporary file, read with `WAVReader`, and
    /// prepared as 20 ms frames of PCM16 at 16 kHz. Checks: a read clip has samples at a
    /// positive rate; prepared frames all have the frame's size; every error is one line
    /// naming the file.
    static func audioFileReading(_ payload: [UInt8]) -> FuzzOutcome {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("vload-fuzz-\(UUID().uuidString).wav").path
        guard FileManager.default.createFile(atPath: path, contents: Data(payload)) else {
            return FuzzOutcome(accepted: false, violations: ["cannot write \(path)"])
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let format = AudioFormat.pcm16(16_000)
        do {
            let clip = try WAVReader.read(path: path)
            var outcome = FuzzOutcome()
            outcome.check(
                !clip.samples.isEmpty && clip.sampleRateHz > 0,
                "a clip of \(clip.samples.count) samples at \(clip.sampleRateHz) Hz"
            )
            let utterance = try PreparedUtterance.prepare(clip: clip, sourcePath: path, format: format, frameMs: 20)
            let frameBytes = format.byteCount(forMilliseconds: 20)
            outcome.check(utterance.frames.allSatisfy { $0.count == frameBytes }, "a prepared frame is not \(frameBytes) bytes")
            return outcome
        } catch {
            return rejected(error.description, naming: path)
        }
    }
}
