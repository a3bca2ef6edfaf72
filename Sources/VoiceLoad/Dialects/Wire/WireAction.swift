import Foundation
import WSCore

/// One line of a `WireScript`: something the client sends, or a frame it receives.
enum WireAction: Sendable, Hashable {
    /// The frames sent as the socket opens.
    case open
    /// One audio frame of this many milliseconds.
    case audio(milliseconds: Int)
    /// The whole clip of an utterance has been sent.
    case endOfUtterance
    /// An intent through the codec.
    case intent(ClientIntent)
    /// A frame from the server.
    case receive(WireFrame)
    /// The URL the dialect connects to for a user-given base URL.
    case endpoint(String)
    /// The server message types the dialect reads by name (`ClientDialect.typesRead`).
    case typesRead

    /// The action a script line names, or why it names none.
    static func parse(_ line: String) -> Result<WireAction, JSONFrameError> {
        let object: [String: JSONValue]
        switch JSONFrame.object(in: .text(line)) {
        case .success(let parsed): object = parsed
        case .failure(let error): return .failure(error)
        }
        if let base = object["endpoint"]?.stringValue { return .success(.endpoint(base)) }
        if object["types_read"] != nil { return .success(.typesRead) }
        if let receive = object["receive"]?.objectValue {
            return frame(receive).map(WireAction.receive)
        }
        guard let send = object["send"]?.stringValue else {
            return .failure(JSONFrameError(reason: #"a script line needs "send" (a string), "receive" (an object) or "endpoint" (a URL)"#))
        }
        return sendAction(send, object)
    }

    private static func sendAction(_ send: String, _ object: [String: JSONValue]) -> Result<WireAction, JSONFrameError> {
        func string(_ key: String) -> String { object[key]?.stringValue ?? "" }
        switch send {
        case "open": return .success(.open)
        case "start": return .success(.intent(.start(parameters: [:])))
        case "audio":
            let milliseconds = object["ms"]?.intValue ?? 20
            guard (1...1_000).contains(milliseconds) else { return .failure(JSONFrameError(reason: "audio ms must be 1–1000")) }
            return .success(.audio(milliseconds: milliseconds))
        case "end_of_utterance": return .success(.endOfUtterance)
        case "interrupt": return .success(.intent(.interrupt))
        case "commit": return .success(.intent(.commit))
        case "keep_alive": return .success(.intent(.keepAlive))
        case "stop": return .success(.intent(.stop))
        case "text": return .success(.intent(.text(string("text"))))
        case "tool_result":
            return .success(.intent(.toolResult(callID: string("call_id"), name: string("name"), output: string("output"))))
        case "playback_truncated":
            return .success(.intent(.playbackTruncated(audioEndMs: object["audio_end_ms"]?.intValue ?? 0)))
        case "mark_played": return .success(.intent(.markPlayed(name: string("name"))))
        case "dtmf": return .success(.intent(.dtmf(digit: string("digit"))))
        case "configure": return .success(.intent(.configure(parameters: object["settings"]?.objectValue ?? [:])))
        default: return .failure(JSONFrameError(reason: "unknown send '\(send)'"))
        }
    }

    /// `{"text": …}` or `{"binary": "<base64>"}`.
    private static func frame(_ object: [String: JSONValue]) -> Result<WireFrame, JSONFrameError> {
        if let text = object["text"]?.stringValue { return .success(.text(text)) }
        if let base64 = object["binary"]?.stringValue, let data = Data(base64Encoded: base64) {
            return .success(.binary([UInt8](data)))
        }
        return .failure(JSONFrameError(reason: #"receive needs {"text": …} or {"binary": "<base64>"}"#))
    }
}
