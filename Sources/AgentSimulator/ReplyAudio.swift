import SimulatorAudio
import VoiceLoad

/// The agent's greeting and reply, decoded, resampled to the dialect's output format,
/// chunked and encoded as wire frames once, and shared by every session. With
/// `replyDurationMs` set the reply clip is looped (or cut) to that length first. When the fault
/// plan has `silence`, the reply's length of digital silence too. Where no WAV is given
/// (`greetingWAV`, `replyWAV`), the clip is the one compiled into the binary (`SimulatorAudio`).
struct ReplyAudio: Sendable {
    let chunks: [SimulatorSession.Clip: [PreparedAudio]]

    init(configuration: SimulatorConfiguration, dialect: any ServerDialect) throws(InputError) {
        let greeting = try Self.frames(
            source: configuration.greetingWAV.map(Source.file) ?? .builtIn(name: "agent-greeting.wav", bytes: SimulatorAudio.greetingWAV),
            durationMs: nil,
            configuration: configuration,
            dialect: dialect
        )
        let reply = try Self.frames(
            source: configuration.replyWAV.map(Source.file) ?? .builtIn(name: "agent-reply.wav", bytes: SimulatorAudio.replyWAV),
            durationMs: configuration.replyDurationMs,
            configuration: configuration,
            dialect: dialect
        )
        var chunks = [SimulatorSession.Clip.greeting: dialect.prepareClip(greeting), .reply: dialect.prepareClip(reply)]
        if configuration.faults.faults.contains(.silence) {
            let silenceByte = dialect.outputFormat.silenceByte
            chunks[.silence] = dialect.prepareClip(reply.map { [UInt8](repeating: silenceByte, count: $0.count) })
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

    /// Where a clip comes from: a WAV file, or one compiled into the binary.
    private enum Source {
        case file(path: String)
        case builtIn(name: String, bytes: [UInt8])

        /// What names the clip in errors.
        var name: String {
            switch self {
            case .file(let path): return path
            case .builtIn(let name, _): return "built-in " + name
            }
        }

        func read() throws(AudioFileError) -> AudioClip {
            switch self {
            case .file(let path): return try WAVReader.read(path: path)
            case .builtIn(_, let bytes): return try WAVReader.read(bytes: bytes, name: name)
            }
        }
    }

    private static func frames(
        source: Source,
        durationMs: Int?,
        configuration: SimulatorConfiguration,
        dialect: any ServerDialect
    ) throws(InputError) -> [[UInt8]] {
        do {
            var clip = try source.read()
            if let durationMs { clip = fitted(clip, durationMs: durationMs) }
            // The agent's audio is streamed whole: where its speech lies does not matter, and a
            // short cut of the reply may hold none, so the speech span is pinned to the start.
            let utterance = try PreparedUtterance.prepare(
                clip: clip,
                sourcePath: source.name,
                format: dialect.outputFormat,
                frameMs: configuration.replyChunkMs,
                overrides: (startMs: 0, endMs: nil)
            )
            return utterance.frames
        } catch {
            throw InputError("simulator audio: \(error)")
        }
    }
}
