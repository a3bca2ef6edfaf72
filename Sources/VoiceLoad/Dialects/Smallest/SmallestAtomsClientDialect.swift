import Foundation
import WSClient
import WSCore

/// The client side of the Smallest.ai Atoms realtime agent WebSocket (docs/dialects.md): flat
/// JSON messages with a `type`, base64 PCM16 audio at one negotiated rate in both directions,
/// readiness on `session.created`, end of turn on `agent_stop_talking`.
///
/// A pure codec: it accepts JSON in text and binary frames, and never throws or traps on
/// what the server sends; unparseable frames become `.malformed`, unknown types `.unknown`.
package struct SmallestAtomsClientDialect: StatelessJSONClientDialect {
    package let id = "smallest-atoms"
    package let apiVersion = "Atoms v1 (/atoms/v1/agent/connect)"
    /// The rate when neither the caller nor the scenario names one.
    package static let defaultSampleRateHz = 24_000
    /// The negotiated rate, for both directions.
    package let sampleRateHz: Int
    /// User audio format: PCM16 at the negotiated rate.
    package let inputFormat: AudioFormat
    /// Agent audio format: PCM16 at the negotiated rate.
    package let outputFormat: AudioFormat
    package let readySignal = ReadySignal.event
    package let turnEndSignal = TurnEndSignal.event
    /// `Authorization: Bearer <API key>` (`?token=` is the documented alternative).
    package let authentication = AuthenticationStyle.header(name: "Authorization", prefix: "Bearer ")
    /// Also the user transcript latencies, from `transcript.delta` and `transcript`.
    package var measures: Set<MetricName> {
        MetricName.core.union([.startedMs, .readyMs, .userTranscriptFirstPartialMs, .userTranscriptFinalMs]).union(MetricName.audioReply)
    }
    /// Whether JSON goes out as UTF-8 in binary frames, as the iOS guide's client does.
    package let sendsJSONAsBinary: Bool

    /// The codec for `sampleRateHz` in both directions (24 kHz when nil).
    package init(sampleRateHz: Int? = nil, sendsJSONAsBinary: Bool = false) {
        let rateHz = sampleRateHz ?? Self.defaultSampleRateHz
        self.sampleRateHz = rateHz
        self.inputFormat = .pcm16(rateHz)
        self.outputFormat = .pcm16(rateHz)
        self.sendsJSONAsBinary = sendsJSONAsBinary
    }

    /// The rate a scenario's session parameters ask for (`sample_rate: 16000`), or nil when
    /// they name none or not a positive whole number.
    package static func sampleRateHz(in parameters: [String: JSONValue]) -> Int? {
        switch parameters["sample_rate"] {
        case .integer(let value)? where value > 0 && value < 10_000_000:
            return Int(value)
        case .number(let value)? where value.rounded() == value && value > 0 && value < 1e7:
            return Int(value)
        case .string(let text)?:
            return Int(text).flatMap { $0 > 0 ? $0 : nil }
        default:
            return nil
        }
    }

    /// `base` with what the connect URL needs and does not have yet: `agent_id` (from the
    /// session parameters, when given), `mode=webcall` and `sample_rate` (this codec's rate).
    package func endpoint(for base: WebSocketEndpoint, parameters: [String: JSONValue]) -> WebSocketEndpoint {
        var endpoint = base
        if endpoint.queryValue(named: "agent_id") == nil, case .string(let agentID)? = parameters["agent_id"] {
            endpoint = endpoint.addingQueryItem(name: "agent_id", value: agentID)
        }
        if endpoint.queryValue(named: "mode") == nil {
            endpoint = endpoint.addingQueryItem(name: "mode", value: "webcall")
        }
        if endpoint.queryValue(named: "sample_rate") == nil {
            endpoint = endpoint.addingQueryItem(name: "sample_rate", value: String(sampleRateHz))
        }
        return endpoint
    }

    /// The `input_audio_buffer.append` frame for one chunk, shared by every connection.
    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(sharedFrame: EncodedFrame(audioFrame(bytes)), byteCount: bytes.count)
    }

    /// Smallest keeps no per-connection state: no start message, no sequence numbers.
    package func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec {
        StatelessJSONClientCodec(dialect: self)
    }

    /// The Smallest message for an intent; nil where Smallest has none (start: the session
    /// starts on connect; interrupt: barge-in is detected by server VAD; keep-alive, tool
    /// results, marks).
    package func encode(_ intent: ClientIntent) -> WireFrame? {
        typealias Name = SmallestAtomsMessage.Name
        switch intent {
        case .audio(let bytes):
            return audioFrame(bytes)
        case .commit:
            return frame(JSONFrame.text(["type": JSONValue(Name.commit)]))
        case .text(let text):
            return frame(JSONFrame.text(["type": JSONValue(Name.textSend), "text": JSONValue(text)]))
        case .stop:
            return frame(JSONFrame.text(["type": JSONValue(Name.sessionClose)]))
        case .start, .interrupt, .keepAlive, .toolResult, .markPlayed, .playbackTruncated, .dtmf, .configure:
            return nil
        }
    }

    /// The events in one server frame, parsed once into `JSONValue`s.
    package func decode(_ frame: WireFrame) -> [NormalizedEvent] {
        let message: SmallestAtomsMessage
        switch SmallestAtomsMessage.parse(frame) {
        case .success(let parsed): message = parsed
        case .failure(let error): return [.malformed(reason: error.reason)]
        }
        typealias Name = SmallestAtomsMessage.Name
        switch message.type {
        case Name.audioDelta:
            return audioEvents(message)
        case Name.sessionCreated:
            var ids: [String: String] = [:]
            for key in ["session_id", "call_id"] {
                if let value = message.text(key) { ids[key] = value }
            }
            return [.sessionStarted(ids: ids), .sessionReady]
        case Name.agentStartTalking:
            return [.agentSpeechStarted(turnKey: nil)]
        case Name.agentStopTalking:
            return [.agentSpeechEnded(turnKey: nil), .turnComplete(turnKey: nil)]
        case Name.interruption:
            return [.agentInterrupted]
        case Name.transcriptDelta:
            return transcriptEvents(message, isFinal: false)
        case Name.transcript:
            return transcriptEvents(message, isFinal: true)
        case Name.sessionClosed:
            return [.sessionEnded(reason: message.string("reason"))]
        case Name.error:
            return [.error(code: message.text("code"), message: message.text("message") ?? "", fatal: false)]
        default:
            return [.unknown(type: message.type)]
        }
    }

    /// `transcript.delta` (cumulative text for the role in the current turn) and `transcript`
    /// (final): role `user` or `assistant` (`agent` is read as `assistant`), unknown when absent.
    private func transcriptEvents(_ message: SmallestAtomsMessage, isFinal: Bool) -> [NormalizedEvent] {
        guard let text = message.string("text") else {
            return [.malformed(reason: "\(message.type) without a text string")]
        }
        let role = message.string("role").map(SmallestAtomsMessage.normalizedRole) ?? "unknown"
        return [.transcript(role: role, text: text, isFinal: isFinal)]
    }

    private func audioEvents(_ message: SmallestAtomsMessage) -> [NormalizedEvent] {
        let base64: String
        switch message.object["audio"] {
        case nil, .some(.null): return []
        case .some(.string(let text)): base64 = text
        case .some(let other):
            return [.malformed(reason: "output_audio.delta audio is \(JSONFrame.kindName(of: other)), not a string")]
        }
        if base64.isEmpty { return [] }
        guard let chunk = AgentAudioChunk(base64: base64, format: outputFormat) else {
            return [.malformed(reason: "output_audio.delta audio is not valid base64 (\(base64.utf8.count) characters)")]
        }
        if chunk.byteCount == 0 { return [] }
        return [.agentAudio(chunk)]
    }

    /// The `input_audio_buffer.append` frame carrying `base64` (standard base64 PCM16).
    func audioFrame(base64: String) -> WireFrame {
        frame(SmallestAtomsMessage.audioText(type: SmallestAtomsMessage.Name.append, base64: base64))
    }

    private func audioFrame(_ bytes: [UInt8]) -> WireFrame {
        audioFrame(base64: Data(bytes).base64EncodedString())
    }

    private func frame(_ text: String) -> WireFrame {
        JSONFrame.frame(text, asBinary: sendsJSONAsBinary)
    }
}
