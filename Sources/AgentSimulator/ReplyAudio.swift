import Foundation
import VoiceLoad

/// The agent's greeting and reply, decoded, resampled to the dialect's output format,
/// chunked and encoded as wire frames once, and shared by every session.
struct ReplyAudio: Sendable {
    let chunks: [SimulatorSession.Clip: [PreparedAudio]]

    init(configuration: SimulatorConfiguration, dialect: any ServerDialect) throws(InputError) {
        let greeting = try Self.frames(
            path: configuration.greetingWAV ?? Self.bundledPath("agent-greeting"), configuration: configuration, dialect: dialect
        )
        let reply = try Self.frames(
            path: configuration.replyWAV ?? Self.bundledPath("agent-reply"), configuration: configuration, dialect: dialect
        )
        chunks = [.greeting: greeting, .reply: reply]
    }

    var chunkCounts: [SimulatorSession.Clip: Int] { chunks.mapValues(\.count) }

    private static func frames(
        path: String, configuration: SimulatorConfiguration, dialect: any ServerDialect
    ) throws(InputError) -> [PreparedAudio] {
        do {
            let utterance = try PreparedUtterance.prepare(
                path: path, format: dialect.outputFormat, frameMs: configuration.replyChunkMs
            )
            return utterance.frames.map(dialect.prepareAudio)
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
