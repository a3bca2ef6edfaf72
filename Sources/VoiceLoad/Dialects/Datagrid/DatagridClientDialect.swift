import Foundation
import WSCore

/// The client side of the Datagrid Voice WebSocket API (docs/dialects.md): JSON messages
/// `{"type":…,"payload":{…}}`, base64 PCM16 audio, readiness on `ready`, and no end-of-turn
/// event on the wire (turns end on an audio gap).
///
/// A pure codec: it accepts JSON in text and binary frames, and never throws or traps on
/// what the server sends; unparseable frames become `.malformed`, unknown types `.unknown`.
package struct DatagridClientDialect: ClientDialect {
    package let id = "datagrid"
    package let apiVersion = "v1 (/ws/voice, REST /v1/voice)"
    /// User audio format: PCM16 16 kHz by default.
    package let inputFormat: AudioFormat
    /// Agent audio format: PCM16 24 kHz by default.
    package let outputFormat: AudioFormat
    package let readySignal = ReadySignal.event
    package let turnEndSignal = TurnEndSignal.audioGap
    /// The API key travels in the query string (`?token=`), docs/dialects.md
    package let authentication = AuthenticationStyle.queryParameter(name: "token")
    /// Datagrid also reports `started_ms` (docs/metrics.md); it has no documented transcript schema.
    package var measures: Set<MetricName> {
        MetricName.core.union([.startedMs, .readyMs]).union(MetricName.audioReply)
    }
    /// Whether JSON goes out as UTF-8 in binary frames instead of text frames.
    package let sendsJSONAsBinary: Bool

    /// The standard Datagrid codec, or one for a compatible server with other audio formats.
    package init(
        inputFormat: AudioFormat = .pcm16(16_000),
        outputFormat: AudioFormat = .pcm16(24_000),
        sendsJSONAsBinary: Bool = false
    ) {
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        self.sendsJSONAsBinary = sendsJSONAsBinary
    }

    /// The `start` frame, `{"type":"start","payload":{…parameters…}}`. Numbers JSON cannot
    /// carry (NaN, infinity) are sent as `null`.
    package func openingFrames(parameters: [String: JSONValue]) -> [WireFrame] {
        [startFrame(parameters: parameters)]
    }

    /// The Datagrid message for an intent; nil for intents Datagrid has no message for
    /// (commit, keep-alive, tool results, Twilio marks).
    package func encode(_ intent: ClientIntent) -> WireFrame? {
        switch intent {
        case .start(let parameters):
            return startFrame(parameters: parameters)
        case .audio(let bytes):
            return frame(DatagridAudioMessage.text(audio: bytes))
        case .interrupt:
            return frame(JSONFrame.text(["type": JSONValue(DatagridMessage.Name.interrupt)]))
        case .stop:
            return frame(JSONFrame.text(["type": JSONValue(DatagridMessage.Name.stop)]))
        case .text(let text):
            return frame(JSONFrame.text(["type": JSONValue(DatagridMessage.Name.text), "payload": ["text": JSONValue(text)]]))
        case .commit, .keepAlive, .toolResult, .markPlayed, .playbackTruncated, .dtmf, .configure:
            return nil
        }
    }

    /// The events in one server frame. Audio frames of the exact `audio` shape take a byte-scan
    /// fast path; everything else is parsed once into `JSONValue`s.
    package func decode(_ frame: WireFrame) -> [NormalizedEvent] {
        if let base64 = DatagridAudioMessage.base64Data(in: frame) {
            return audioEvents(base64: base64)
        }
        return decodeParsingJSON(frame)
    }

    /// `decode` without the audio fast path: the general path, which the fast path must agree with.
    func decodeParsingJSON(_ frame: WireFrame) -> [NormalizedEvent] {
        let message: DatagridMessage
        switch DatagridMessage.parse(frame) {
        case .success(let parsed): message = parsed
        case .failure(let error): return [.malformed(reason: error.reason)]
        }
        typealias Name = DatagridMessage.Name
        switch message.type {
        case Name.started:
            var ids: [String: String] = [:]
            for key in ["session_id", "conversation_id"] {
                if let value = message.payloadString(key) { ids[key] = value }
            }
            return [.sessionStarted(ids: ids)]
        case Name.ready:
            return [.sessionReady]
        case Name.audio:
            switch message.payload?["data"] {
            case nil, .some(.null): return []
            case .some(.string(let base64)): return audioEvents(base64: base64)
            case .some(let other):
                return [.malformed(reason: "audio data is \(JSONFrame.kindName(of: other)), not a string")]
            }
        case Name.toolCall:
            return [
                .toolCall(
                    name: message.payloadString("tool_name") ?? message.payloadString("name") ?? "",
                    status: message.payloadString("status") ?? "",
                    id: message.payloadString("id") ?? message.payloadString("tool_call_id") ?? message.payloadString("call_id"),
                    arguments: ToolCallArguments.text(message.payload?["arguments"] ?? message.payload?["args"])
                )
            ]
        case Name.interrupted:
            return [.agentInterrupted]
        case Name.error:
            return [.error(code: nil, message: message.payloadString("message") ?? "", fatal: true)]
        case Name.transcript:
            return transcriptEvents(message)
        case Name.citation:
            return []
        case Name.ended:
            return [.sessionEnded(reason: nil)]
        default:
            return [.unknown(type: message.type)]
        }
    }

    /// `transcript`'s payload is undocumented, so it is read defensively: role from `role` (or
    /// `speaker`), text from `text` (or `transcript`), finality from `is_final`, `final` or
    /// `isFinal` (true when absent). A transcript with no text is counted as `.unknown`.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(sharedFrame: EncodedFrame(frame(DatagridAudioMessage.text(audio: bytes))), byteCount: bytes.count)
    }

    /// Datagrid keeps no per-connection state beyond the `start` parameters.
    package func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec {
        DatagridClientCodec(dialect: self, parameters: parameters)
    }

    private func transcriptEvents(_ message: DatagridMessage) -> [NormalizedEvent] {
        guard let text = message.payloadString("text") ?? message.payloadString("transcript") else {
            return [.unknown(type: message.type)]
        }
        let role = message.payloadString("role") ?? message.payloadString("speaker") ?? "unknown"
        var isFinal = true
        for key in ["is_final", "final", "isFinal"] {
            if let flag = message.payload?[key]?.boolValue {
                isFinal = flag
                break
            }
        }
        return [.transcript(role: role, text: text, isFinal: isFinal)]
    }

    /// The events of an audio message whose `data` is `base64`: none when it is empty.
    private func audioEvents(base64: String) -> [NormalizedEvent] {
        if base64.isEmpty { return [] }
        guard let chunk = AgentAudioChunk(base64: base64, format: outputFormat) else {
            return [.malformed(reason: "audio data is not valid base64 (\(base64.utf8.count) characters)")]
        }
        if chunk.byteCount == 0 { return [] }
        return [.agentAudio(chunk)]
    }

    private func startFrame(parameters: [String: JSONValue]) -> WireFrame {
        frame(JSONFrame.text(["type": .string(DatagridMessage.Name.start), "payload": .object(parameters)]))
    }

    private func frame(_ text: String) -> WireFrame {
        JSONFrame.frame(text, asBinary: sendsJSONAsBinary)
    }
}
