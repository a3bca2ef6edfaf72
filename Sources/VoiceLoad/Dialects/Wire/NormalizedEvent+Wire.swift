/// Normalized events as JSON objects, for `vload wire`: `event` is the normalized name (vload's own
/// finer events have names of their own), the other members are the event's fields.
extension NormalizedEvent {
    var wireDescription: [String: JSONValue] {
        switch self {
        case .sessionStarted(let ids): return ["event": "session.started", "ids": .object(ids.mapValues(JSONValue.string))]
        case .sessionReady: return ["event": "session.ready"]
        case .agentAudio(let chunk):
            var description: [String: JSONValue] = [
                "event": "agent.audio", "bytes": JSONValue(chunk.byteCount), "duration_us": JSONValue(chunk.durationUs),
                "rms": JSONValue(Double(chunk.rmsLevel)),
            ]
            description["turn_key"] = chunk.turnKey.map(JSONValue.string)
            return description
        case .agentSpeechStarted(let turnKey): return Self.keyed("agent.speech_started", turnKey)
        case .agentSpeechEnded(let turnKey): return Self.keyed("agent.speech_ended", turnKey)
        case .userSpeechStarted: return ["event": "user.speech_started"]
        case .userSpeechStopped: return ["event": "user.speech_stopped"]
        case .agentInterrupted: return ["event": "agent.interrupted"]
        case .turnComplete(let turnKey): return Self.keyed("turn.complete", turnKey)
        case .transcript(let role, let text, let isFinal):
            return ["event": "transcript", "role": JSONValue(role), "text": JSONValue(text), "final": JSONValue(isFinal)]
        case .toolCall(let name, let status, let id, let arguments):
            var description: [String: JSONValue] = ["event": "tool.call", "name": JSONValue(name), "status": JSONValue(status)]
            description["id"] = id.map(JSONValue.string)
            description["arguments"] = arguments.map(JSONValue.string)
            return description
        case .error(let code, let message, let fatal):
            var description: [String: JSONValue] = ["event": "error", "message": JSONValue(message), "fatal": JSONValue(fatal)]
            description["code"] = code.map(JSONValue.string)
            return description
        case .warning(let code, let message):
            var description: [String: JSONValue] = ["event": "warning", "message": JSONValue(message)]
            description["code"] = code.map(JSONValue.string)
            return description
        case .sessionEnded(let reason):
            var description: [String: JSONValue] = ["event": "session.ended"]
            description["reason"] = reason.map(JSONValue.string)
            return description
        case .responseCancelled(let turnKey): return Self.keyed("response.cancelled", turnKey)
        case .speechResult(let result):
            return [
                "event": "speech_result", "text": JSONValue(result.text), "final": JSONValue(result.isFinal),
                "speech_final": JSONValue(result.speechFinal),
                "start_s": JSONValue(result.startS), "duration_s": JSONValue(result.durationS),
                "from_finalize": JSONValue(result.fromFinalize),
            ]
        case .utteranceEnd: return ["event": "utterance_end"]
        case .userTurn(let signal): return ["event": .string(signal.rawValue)]
        case .cancelNotActive: return ["event": "cancel_not_active"]
        case .serverLatency(let name, let valueUs):
            return ["event": "server_latency", "name": .string(name), "value_ms": .number(Double(valueUs) / 1_000)]
        case .mark(let name): return ["event": "mark", "name": .string(name)]
        case .unknown(let type): return ["event": "unknown", "type": .string(type)]
        case .malformed(let reason): return ["event": "malformed", "reason": .string(reason)]
        }
    }

    private static func keyed(_ name: String, _ turnKey: String?) -> [String: JSONValue] {
        var description: [String: JSONValue] = ["event": JSONValue(name)]
        description["turn_key"] = turnKey.map(JSONValue.string)
        return description
    }
}
