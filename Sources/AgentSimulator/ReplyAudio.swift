import Foundation
import VoiceLoad

/// The agent's greeting and reply, decoded, resampled to the dialect's output format,
/// chunked and encoded as wire frames once, and shared by every session. With
/// `replyDurationMs` set the reply clip is looped (or cut) to that length first. When the fault
/// plan has `silence`, the reply's length of digital silence too.
struct ReplyAudio: Sendable {
    let chunks: [SimulatorSession.Clip: [PreparedAudio]]

    init(configuration: SimulatorConfiguration, dialect: any ServerDialect) throws(InputError) {
        let greeting = try Self.frames(
            path: configuration.greetingWAV ?? Self.bundledPath("agent-greeting"),
            durationMs: nil,
            configuration: configuration,
            dialect: dialect
        )
        let reply = try Self.frames(
            path: configuration.replyWAV ?? Self.bundledPath("agent-reply"),
            durationMs: configuration.replyDurationMs,
            configuration: configuration,
            dialect: dialect
        )
        var chunks = [SimulatorSession.Clip.greeting: greeting.map(dialect.prepareAudio), .reply: reply.map(dialect.prepareAudio)]
        if configuration.faults.faults.contains(.silence) {
            let silenceByte = dialect.outputFormat.silenceByte
            chunks[.silence] = reply.map { dialect.prepareAudio([UInt8](repeating: silenceByte, count: $0.count)) }
        }
        self.chunks = chunks
    }

    var chunkCounts: [SimulatorSession.Clip: Int] { chunks.mapValues(\.count) }

    /// `clip` repeated from its start as often as needed and cut to exactly `durationMs`.
    static func fitted(_ clip: AudioClip, durationMs: Int) -> AudioClip {
        let count = Int(Int64(durationMs) * Int64(clip.sampleRateHz) / 1_000)
        guard !clip.samples.isEmpty, count > 0 else { return AudioClip(samples: [], sampleRateHz: clip.sampleRateHz) }
        var samples: [Int16] = []
        samples.reserveCapacity(count)
        while samples.count < count {
            samples.append(contentsOf: clip.samples.prefix(count - samples.count))
        }
        return AudioClip(samples: samples, sampleRateHz: clip.sampleRateHz)
    }

    private static func frames(
        path: String,
        durationMs: Int?,
        configuration: SimulatorConfiguration,
        dialect: any ServerDialect
    ) throws(InputError) -> [[UInt8]] {
        do {
            var clip = try WAVReader.read(path: path)
            if let durationMs { clip = fitted(clip, durationMs: durationMs) }
            // The agent's audio is streamed whole: where its speech lies does not matter, and a
            // short cut of the reply may hold none, so the speech span is pinned to the start.
            let utterance = try PreparedUtterance.prepare(
                clip: clip,
                sourcePath: path,
                format: dialect.outputFormat,
                frameMs: configuration.replyChunkMs,
                overrides: (startMs: 0, endMs: nil)
            )
            return utterance.frames
        } catch {
            throw InputError("simulator audio: \(error)")
        }
    }

    private static func bundledPath(_ name: String) -> String {
        Bundle.module.path(forResource: name, ofType: "wav", inDirectory: "Resources")
            ?? Bundle.module.path(forResource: name, ofType: "wav")
            ?? "\(name).wav"
    }
}
