import Foundation
import WSCore

/// The server side of the Datagrid Voice WebSocket API (docs/dialects.md), as the agent
/// simulator speaks it: decodes client messages (JSON in text or binary frames) into intents
/// and encodes agent output into Datagrid messages.
package struct DatagridServerDialect: ServerDialect {
    package let id = "datagrid"
    /// User audio format: PCM16 16 kHz by default.
    package let inputFormat: AudioFormat
    /// Agent audio format: PCM16 24 kHz by default.
    package let outputFormat: AudioFormat
    /// Whether JSON goes out as UTF-8 in binary frames instead of text frames.
    package let sendsJSONAsBinary: Bool
    /// The session starts with the client's `start` message.
    package let sessionStart = ServerSessionStart.onClientStart

    package init(
        inputFormat: AudioFormat = .pcm16(16_000),
        outputFormat: AudioFormat = .pcm16(24_000),
        sendsJSONAsBinary: Bool = false
    ) {
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        self.sendsJSONAsBinary = sendsJSONAsBinary
    }

    /// The intents in one client frame: `start` (payload → parameters, none → empty), `audio`
    /// (base64 → bytes; empty data → no intent), `interrupt`, `stop`, `text` (`payload.text`).
    /// Throws `.unknownType` for a well-formed message of another type and `.malformed` for
    /// anything that is not a Datagrid client message.
    package func decode(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        if let base64 = DatagridAudioMessage.base64Data(in: frame) {
            return try audioIntents(base64: base64)
        }
        let message: DatagridMessage
        switch DatagridMessage.parse(frame) {
        case .success(let parsed): message = parsed
        case .failure(let error): throw .malformed(error.reason)
        }
        typealias Name = DatagridMessage.Name
        switch message.type {
        case Name.start:
            guard let payload = message.payload else { return [.start(parameters: [:])] }
            return [.start(parameters: payload)]
        case Name.audio:
            switch message.payload?["data"] {
            case .some(.string(let base64)): return try audioIntents(base64: base64)
            case nil, .some(.null): throw .malformed("audio message without data")
            case .some(let other): throw .malformed("audio data is \(JSONFrame.kindName(of: other)), not a string")
            }
        case Name.interrupt:
            return [.interrupt]
        case Name.stop:
            return [.stop]
        case Name.text:
            guard let text = message.payloadString("text") else { throw .malformed("text message without payload.text") }
            return [.text(text)]
        default:
            throw .unknownType(message.type)
        }
    }

    /// The Datagrid message for `output`, or nil when Datagrid has none (it has no VAD, turn
    /// or hello events on the wire). A tool call's payload is `{tool_name, status}` (documented) plus,
    /// when the call has them, `id` and `arguments` (as a JSON value; undocumented fields). Strings are escaped by `JSONText`; audio is built
    /// by concatenation around the base64 text.
    package func encode(_ output: AgentOutput) -> WireFrame? {
        typealias Name = DatagridMessage.Name
        let text: String
        switch output {
        case .connectionOpened, .userTurnResumed, .userSpeechStarted, .userSpeechStopped, .agentTurnStarted, .agentAudioDone,
            .turnComplete, .responseCancelled, .speechResult, .utteranceEnd:
            return nil
        case .sessionStarted(let sessionID, let conversationID):
            text = JSONFrame.text([
                "type": JSONValue(Name.started),
                "payload": ["session_id": JSONValue(sessionID), "conversation_id": JSONValue(conversationID)],
            ])
        case .ready:
            text = JSONFrame.text(["type": JSONValue(Name.ready)])
        case .audio(let bytes):
            text = DatagridAudioMessage.text(audio: bytes)
        case .interrupted:
            text = JSONFrame.text(["type": JSONValue(Name.interrupted)])
        case .toolCall(let name, let status, let id, let arguments):
            var payload: [String: JSONValue] = ["tool_name": JSONValue(name), "status": JSONValue(status)]
            if let id { payload["id"] = .string(id) }
            if let arguments { payload["arguments"] = ToolCallArguments.value(arguments) }
            text = JSONFrame.text(["type": JSONValue(Name.toolCall), "payload": JSONValue(payload)])
        case .transcript(let line):
            text = JSONFrame.text([
                "type": JSONValue(Name.transcript),
                "payload": ["role": JSONValue(line.role), "text": JSONValue(line.text), "is_final": JSONValue(line.isFinal)],
            ])
        case .error(_, let message):  // Datagrid errors carry a message only
            text = JSONFrame.text(["type": JSONValue(Name.error), "payload": ["message": JSONValue(message)]])
        case .ended(let transcript):
            let lines: [JSONValue] = transcript.map { ["role": JSONValue($0.role), "text": JSONValue($0.text)] }
            text = JSONFrame.text(["type": JSONValue(Name.ended), "payload": ["transcript": JSONValue(lines)]])
        }
        return JSONFrame.frame(text, asBinary: sendsJSONAsBinary)
    }

    package func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio {
        PreparedAudio(
            sharedFrame: EncodedFrame(JSONFrame.frame(DatagridAudioMessage.text(audio: bytes), asBinary: sendsJSONAsBinary)),
            byteCount: bytes.count
        )
    }

    /// Datagrid keeps no per-connection state: the dialect is its own codec.
    package func makeCodec(target: String) -> any ServerCodec { self }

    private func audioIntents(base64: String) throws(DialectDecodingError) -> [ClientIntent] {
        if base64.isEmpty { return [] }
        guard let bytes = JSONFrame.base64Decoded(base64) else {
            throw .malformed("audio data is not valid base64 (\(base64.utf8.count) characters)")
        }
        return bytes.isEmpty ? [] : [.audio(bytes)]
    }
}

extension DatagridServerDialect: ServerCodec {
    package func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        try decode(frame)
    }

    package func frames(for output: AgentOutput) -> [WireFrame] {
        encode(output).map { [$0] } ?? []
    }

    package func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.text(""))
    }
}
