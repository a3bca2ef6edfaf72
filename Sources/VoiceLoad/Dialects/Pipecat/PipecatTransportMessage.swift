import Foundation

/// A Pipecat transport message (`MessageFrame.data`, JSON text), read as the RTVI event it
/// carries when the bot runs Pipecat's RTVI processor: `{"label": "rtvi-ai", "type": …}`.
enum PipecatTransportMessage {
    /// `user-started-speaking` / `user-stopped-speaking` → server VAD events,
    /// `user-transcription` → the user's transcript, `error` → an in-band error, `bot-ready`
    /// (the answer to vload's `client-ready`) → nothing; other RTVI types and other messages →
    /// unknown (counted, never fatal); not a JSON object → malformed.
    static func events(json: String) -> [NormalizedEvent] {
        let object: [String: JSONValue]
        switch JSONFrame.object(in: .text(json)) {
        case .success(let parsed): object = parsed
        case .failure(let error): return [.malformed(reason: "message frame: \(error.reason)")]
        }
        guard let type = object["type"]?.stringValue else { return [.unknown(type: "message")] }
        let data = object["data"]?.objectValue ?? [:]
        switch type {
        case "user-started-speaking":
            return [.userSpeechStarted]
        case "user-stopped-speaking":
            return [.userSpeechStopped]
        case "user-transcription":
            return [.transcript(role: "user", text: data["text"]?.stringValue ?? "", isFinal: data["final"]?.boolValue ?? true)]
        case "error":
            return [.error(code: nil, message: data["error"]?.stringValue ?? "", fatal: data["fatal"]?.boolValue ?? false)]
        case "bot-ready":
            return []
        default:
            return [.unknown(type: "message \(type)")]
        }
    }
}
