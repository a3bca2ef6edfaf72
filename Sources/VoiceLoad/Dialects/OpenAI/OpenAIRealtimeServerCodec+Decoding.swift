import Foundation
import WSCore

extension OpenAIRealtimeServerCodec {
    /// The intents in one client event: `session.update` → `start` with its `session`
    /// object, `input_audio_buffer.append` → audio, `commit` → commit, `response.cancel` →
    /// interrupt, a `function_call_output` item → tool result (named after the call this codec
    /// announced, else ""), a user `message` item → text. `input_audio_buffer.clear`,
    /// `response.create`, `conversation.item.truncate`, `output_audio_buffer.clear` and other
    /// items carry no intent. Throws `.unknownType` for other types, `.malformed` for frames
    /// that are not OpenAI client events.
    mutating func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        let message: OpenAIRealtimeMessage
        switch OpenAIRealtimeMessage.parse(frame) {
        case .success(let parsed): message = parsed
        case .failure(let error): throw .malformed(error.reason)
        }
        switch message.type {
        case Name.sessionUpdate:
            let parameters = try sessionParameters(message)
            apply(sessionUpdate: parameters)
            return [.start(parameters: parameters)]
        case Name.inputAudioAppend:
            return try audioIntents(message)
        case Name.inputAudioCommit:
            return [.commit]
        case Name.responseCancel:
            return [.interrupt]
        case Name.itemCreate:
            return try itemIntents(message)
        case Name.itemTruncate:
            return [.playbackTruncated(audioEndMs: message.object["audio_end_ms"]?.intValue ?? 0)]
        case Name.inputAudioClear, Name.responseCreate, Name.outputAudioClear:
            return []
        default:
            throw .unknownType(message.type)
        }
    }

    private func sessionParameters(_ message: OpenAIRealtimeMessage) throws(DialectDecodingError) -> [String: JSONValue] {
        switch message.object["session"] {
        case nil, .some(.null):
            return [:]
        case .some(.object(let session)):
            return session
        case .some(let other):
            throw .malformed("session.update session is \(JSONFrame.kindName(of: other)), not an object")
        }
    }

    private func audioIntents(_ message: OpenAIRealtimeMessage) throws(DialectDecodingError) -> [ClientIntent] {
        guard let base64 = message.string("audio") else {
            throw .malformed("input_audio_buffer.append without a string audio")
        }
        if base64.isEmpty { return [] }
        guard let bytes = JSONFrame.base64Decoded(base64) else {
            throw .malformed("input_audio_buffer.append audio is not valid base64 (\(base64.utf8.count) characters)")
        }
        return bytes.isEmpty ? [] : [.audio(bytes)]
    }

    private mutating func itemIntents(_ message: OpenAIRealtimeMessage) throws(DialectDecodingError) -> [ClientIntent] {
        guard let item = message.member("item") else { throw .malformed("conversation.item.create without an item") }
        switch item["type"]?.stringValue {
        case "function_call_output":
            guard let callID = item["call_id"]?.stringValue else {
                throw .malformed("function_call_output without a call_id")
            }
            let name = functionNames.removeValue(forKey: callID) ?? ""
            return [.toolResult(callID: callID, name: name, output: item["output"]?.stringValue ?? "")]
        case "message":
            guard item["role"]?.stringValue == "user", let content = item["content"]?.arrayValue else { return [] }
            let texts = content.compactMap { part -> String? in
                guard let part = part.objectValue, part["type"]?.stringValue == "input_text" else { return nil }
                return part["text"]?.stringValue
            }
            return texts.isEmpty ? [] : [.text(texts.joined())]
        default:
            return []
        }
    }
}
