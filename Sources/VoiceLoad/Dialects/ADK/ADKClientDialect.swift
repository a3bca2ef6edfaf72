import Foundation
import WSClient
import WSCore

/// The client side of a Google ADK bidi-streaming application server (docs/dialects.md), in
/// one of three wire shapes (`ADKVariant`): ready on open, PCM16 16 kHz up and 24 kHz down,
/// end of turn on `turn_complete` / `turnComplete`, barge-in on `interrupted` (checked on
/// every frame), no authentication and no goodbye (the session ends when the socket closes).
///
/// A pure codec: it accepts JSON in text and binary frames, and never throws or traps on
/// what the server sends; unparseable frames become `.malformed`, unknown shapes `.unknown`.
package struct ADKClientDialect: StatelessJSONClientDialect {
    package let variant: ADKVariant
    /// User audio format: PCM16 16 kHz by default (ADK does not convert formats).
    package let inputFormat: AudioFormat
    /// Agent audio format: PCM16 24 kHz by default (native-audio models).
    package let outputFormat: AudioFormat
    package let readySignal = ReadySignal.onOpen
    package let turnEndSignal = TurnEndSignal.event
    /// The samples have no authentication; headers and query parameters stay configurable.
    package let authentication = AuthenticationStyle.none
    /// Also the user transcript latencies, except on `adk-legacy`, which forwards none.
    package var measures: Set<MetricName> {
        let transcripts: Set<MetricName> = variant == .legacy ? [] : [.userTranscriptFirstPartialMs, .userTranscriptFinalMs]
        return MetricName.core.union(transcripts).union(MetricName.audioReply)
    }

    /// The client side of `variant`; the formats are configurable for servers that differ
    /// from the ADK defaults.
    package init(variant: ADKVariant, inputFormat: AudioFormat = .pcm16(16_000), outputFormat: AudioFormat = .pcm16(24_000)) {
        self.variant = variant
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
    }

    /// The variant's id: `adk-seed`, `adk-legacy` or `adk-events`.
    package var id: String { variant.id }
    /// The wire belongs to the application, not to Google.
    package var apiVersion: String { "none: the application defines it (google-adk bidi-streaming samples)" }

    /// ADK suggests 50–100 ms chunks, "balanced" (docs/metrics.md).
    package var defaultFrameMs: Int { 50 }

    /// `base` completed to the variant's URL shape when its path is just `/ws` or `/ws/`:
    /// `/ws/{digits}` (seed, legacy) or `/ws/vload-user/{digits}` (events), the digits taken
    /// from the session parameter `session_id` when it is digits-only, else `1`; seed and
    /// legacy also get `is_audio=true` when the query has no `is_audio`. Other paths are kept.
    package func endpoint(for base: WebSocketEndpoint, parameters: [String: JSONValue]) -> WebSocketEndpoint {
        endpoint(for: base, parameters: parameters, sessionID: Self.digitsSessionID(in: parameters))
    }

    /// Each session gets its own digits id in the path, unless the scenario fixes `session_id`.
    package func endpoint(for base: WebSocketEndpoint, parameters: [String: JSONValue], session: Int) -> WebSocketEndpoint {
        let fixed = parameters["session_id"] != nil
        return endpoint(for: base, parameters: parameters, sessionID: fixed ? Self.digitsSessionID(in: parameters) : String(session))
    }

    private func endpoint(for base: WebSocketEndpoint, parameters: [String: JSONValue], sessionID: String) -> WebSocketEndpoint {
        var endpoint = base
        if base.path == "/ws" || base.path == "/ws/" {
            let path = variant == .events ? "/ws/vload-user/\(sessionID)" : "/ws/\(sessionID)"
            let query = base.query.map { "?" + $0 } ?? ""
            let scheme = base.scheme.rawValue
            if let rewritten = try? WebSocketEndpoint(parsing: "\(scheme)://\(base.hostHeader)\(path)\(query)") {
                endpoint = rewritten
            }
        }
        if variant.usesIsAudioQuery, endpoint.queryValue(named: "is_audio") == nil {
            endpoint = endpoint.addingQueryItem(name: "is_audio", value: "true")
        }
        return endpoint
    }

    /// The session id for the URL path: `session_id` from the parameters when it is a
    /// digits-only string or a non-negative whole number, else `1` (the legacy sample declares
    /// the id an integer).
    static func digitsSessionID(in parameters: [String: JSONValue]) -> String {
        switch parameters["session_id"] {
        case .string(let text)? where !text.isEmpty && text.utf8.allSatisfy({ (0x30...0x39).contains($0) }):
            return text
        case .integer(let value)? where value >= 0:
            return String(value)
        case .number(let value)? where value >= 0 && value.rounded() == value && value < 1e15:
            return String(Int(value))
        default:
            return "1"
        }
    }

    /// The variant's audio frame for one chunk, shared by every connection.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(sharedFrame: EncodedFrame(audioFrame(bytes)), byteCount: bytes.count)
    }

    /// ADK keeps no per-connection state on the client side.
    package func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec {
        StatelessJSONClientCodec(dialect: self)
    }

    /// The variant's frame for an intent: audio, and text (seed and legacy
    /// `{"mime_type":"text/plain","data":…}`, events `{"type":"text","text":…}`); nil for
    /// everything else, `stop` included: the session ends by closing the socket.
    package func encode(_ intent: ClientIntent) -> WireFrame? {
        switch intent {
        case .audio(let bytes):
            return audioFrame(bytes)
        case .text(let text):
            switch variant {
            case .seed, .legacy: return .text(JSONFrame.text(["mime_type": "text/plain", "data": .string(text)]))
            case .events: return .text(JSONFrame.text(["type": "text", "text": .string(text)]))
            }
        case .start, .interrupt, .commit, .keepAlive, .toolResult, .markPlayed, .playbackTruncated, .stop, .dtmf, .configure:
            return nil
        }
    }

    /// The events in one server frame, parsed once into `JSONValue`s.
    package func decode(_ frame: WireFrame) -> [NormalizedEvent] {
        switch variant {
        case .seed, .legacy: return ADKFlatFrameDecoder(outputFormat: outputFormat).decode(frame)
        case .events: return ADKEventDecoder(outputFormat: outputFormat).decode(frame)
        }
    }

    /// The user audio frame: seed `{"mime_type":"audio/pcm","data":b64,"role":"user"}`, legacy
    /// the same without `role`, events the raw PCM in a binary frame.
    func audioFrame(_ bytes: [UInt8]) -> WireFrame {
        switch variant {
        case .seed, .legacy: return audioFrame(base64: Data(bytes).base64EncodedString())
        case .events: return .binary(bytes)
        }
    }

    /// The seed or legacy audio frame around `base64`, built by concatenation; for events, the
    /// decoded bytes in a binary frame.
    func audioFrame(base64: String) -> WireFrame {
        switch variant {
        case .seed: return .text(#"{"mime_type":"audio/pcm","data":""# + base64 + #"","role":"user"}"#)
        case .legacy: return .text(#"{"mime_type":"audio/pcm","data":""# + base64 + #""}"#)
        case .events: return .binary(JSONFrame.base64Decoded(base64) ?? [])
        }
    }
}
