import Foundation
import WSCore

/// The server side of one ADK connection: decodes client frames through
/// `ADKServerDialect.decode` and frames agent output in the variant's shape.
struct ADKServerCodec: ServerCodec {
    let variant: ADKVariant
    let outputFormat: AudioFormat

    /// The `author` of the simulated agent's events (adk-events).
    static let author = "agent"

    func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        try ADKServerDialect.decode(frame, variant: variant)
    }

    /// Audio in the variant's shape; `.turnComplete` → `{"turn_complete":true}` (legacy adds
    /// `"interrupted":false`, as its sample sends both flags; events: an Event with
    /// `turnComplete`); `.interrupted` → `{"turn_complete":false,"interrupted":true}` (events:
    /// an Event with `interrupted`); transcripts as seed `input_transcription` /
    /// `output_transcription` or events `inputTranscription` / `outputTranscription`; tool calls
    /// as seed `tool_use` or an events `functionCall` part (completions as `functionResponse`); errors as an events Event with
    /// `errorCode` (the error's code, else `INTERNAL`). Everything else has no frame: ADK servers send no ready,
    /// VAD, turn-start or goodbye message, and legacy forwards no transcriptions, tools or errors.
    func frames(for output: AgentOutput) -> [WireFrame] {
        let object: [String: JSONValue]
        switch output {
        case .audio(let bytes):
            return [Self.audioFrame(bytes, variant: variant, format: outputFormat)]
        case .turnComplete:
            switch variant {
            case .seed: object = ["turn_complete": true]
            case .legacy: object = ["turn_complete": true, "interrupted": false]
            case .events: object = ["author": .string(Self.author), "turnComplete": true]
            }
        case .interrupted:
            switch variant {
            case .seed, .legacy: object = ["turn_complete": false, "interrupted": true]
            case .events: object = ["author": .string(Self.author), "interrupted": true]
            }
        case .transcript(let line):
            guard let transcript = transcriptObject(line) else { return [] }
            object = transcript
        case .toolCall(let name, let status, let id, let arguments):
            guard let toolObject = toolObject(name: name, completed: status == "completed", id: id, arguments: arguments) else {
                return []
            }
            object = toolObject
        case .error(let code, let message):
            guard variant == .events else { return [] }
            object = ["author": JSONValue(Self.author), "errorCode": JSONValue(code ?? "INTERNAL"), "errorMessage": JSONValue(message)]
        case .connectionOpened, .userTurnResumed, .sessionStarted, .ready, .userSpeechStarted, .userSpeechStopped, .agentTurnStarted,
            .agentAudioDone, .responseCancelled, .speechResult, .utteranceEnd, .ended:
            return []
        }
        return [.text(JSONFrame.text(object))]
    }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        if let frame = audio.sharedFrame { return frame }
        let bytes = audio.base64.flatMap(JSONFrame.base64Decoded) ?? []
        return EncodedFrame(Self.audioFrame(bytes, variant: variant, format: outputFormat))
    }

    /// Seed and legacy `{"mime_type":"audio/pcm","data":b64}`; events an Event whose one
    /// content part is `inlineData` with base64url `data` (as pydantic serializes bytes) and
    /// `mimeType` `audio/pcm;rate=…`. Built by concatenation around the base64 text.
    static func audioFrame(_ bytes: [UInt8], variant: ADKVariant, format: AudioFormat) -> WireFrame {
        switch variant {
        case .seed, .legacy:
            return .text(#"{"mime_type":"audio/pcm","data":""# + Data(bytes).base64EncodedString() + #""}"#)
        case .events:
            return .text(
                #"{"author":""# + author + #"","content":{"parts":[{"inlineData":{"data":""#
                    + ADKBase64.urlSafeEncoded(bytes)
                    + #"","mimeType":"audio/pcm;rate=\#(format.sampleRateHz)"}}],"role":"model"},"partial":true}"#
            )
        }
    }

    /// ADK runs its tools itself, so a call is announced when it starts: seed `tool_use` with
    /// `tool_args`, events a `functionCall` part (with `id` and `args`). Its completion is an
    /// events `functionResponse` part; seed and legacy send nothing for it.
    private func toolObject(name: String, completed: Bool, id: String?, arguments: String?) -> [String: JSONValue]? {
        let args = ToolCallArguments.value(arguments)
        switch variant {
        case .seed:
            return completed ? nil : ["type": "tool_use", "tool_name": JSONValue(name), "tool_args": args]
        case .legacy:
            return nil
        case .events:
            var call: [String: JSONValue] = ["name": JSONValue(name)]
            if let id { call["id"] = .string(id) }
            if completed {
                call["response"] = [:]
            } else {
                call["args"] = args
            }
            let part: [String: JSONValue] = [completed ? "functionResponse" : "functionCall": JSONValue(call)]
            return ["author": JSONValue(Self.author), "content": ["role": "model", "parts": [.object(part)]]]
        }
    }

    /// A user line is input transcription, any other output transcription; legacy has none.
    private func transcriptObject(_ line: TranscriptLine) -> [String: JSONValue]? {
        let isUser = line.role == "user"
        switch variant {
        case .seed:
            return [
                "type": JSONValue(isUser ? "input_transcription" : "output_transcription"), "finished": JSONValue(line.isFinal),
                "data": JSONValue(line.text),
            ]
        case .legacy:
            return nil
        case .events:
            let transcription: [String: JSONValue] = ["text": JSONValue(line.text), "finished": JSONValue(line.isFinal)]
            return [
                "author": JSONValue(isUser ? "user" : Self.author),
                isUser ? "inputTranscription" : "outputTranscription": JSONValue(transcription),
            ]
        }
    }
}
