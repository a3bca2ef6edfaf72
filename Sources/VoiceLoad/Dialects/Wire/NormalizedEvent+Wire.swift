/// Normalized events as JSON objects, for `vload wire`: `event` is the normalized name (vload's own
/// finer events have names of their own), the other members are the event's fields.
extension NormalizedEvent {
    var wireDescription: [String: Any] {
        switch self {
        case .sessionStarted(let ids): return ["event": "session.started", "ids": ids]
        case .sessionReady: return ["event": "session.ready"]
        case .agentAudio(let chunk):
            var description: [String: Any] = [
                "event": "agent.audio", "bytes": chunk.byteCount, "duration_us": chunk.durationUs, "rms": Double(chunk.rmsLevel),
            ]
            description["turn_key"] = chunk.turnKey
            return description
        case .agentSpeechStarted(let turnKey): return Self.keyed("agent.speech_started", turnKey)
        case .agentSpeechEnded(let turnKey): return Self.keyed("agent.speech_ended", turnKey)
        case .userSpeechStarted: return ["event": "user.speech_started"]
        case .userSpeechStopped: return ["event": "user.speech_stopped"]
        case .agentInterrupted: return ["event": "agent.interrupted"]
        case .turnComplete(let turnKey): return Self.keyed("turn.complete", turnKey)
        case .transcript(let role, let text, let isFinal):
            return ["event": "transcript", "role": role, "text": text, "final": isFinal]
        case .toolCall(let name, let status, let id, let arguments):
            var description: [String: Any] = ["event": "tool.call", "name": name, "status": status]
            description["id"] = id
            description["arguments"] = arguments
            return description
        case .error(let code, let message, let fatal):
            var description: [String: Any] = ["event": "error", "message": message, "fatal": fatal]
            description["code"] = code
            return description
        case .warning(let code, let message):
            var description: [String: Any] = ["event": "warning", "message": message]
            description["code"] = code
            return description
        case .sessionEnded(let reason):
            var description: [String: Any] = ["event": "session.ended"]
            description["reason"] = reason
            return description
        case .responseCancelled(let turnKey): return Self.keyed("response.cancelled", turnKey)
        case .speechResult(let result):
            return [
                "event": "speech_result", "text": result.text, "final": result.isFinal, "speech_final": result.speechFinal,
                "start_s": result.startS, "duration_s": result.durationS, "from_finalize": result.fromFinalize,
            ]
        case .utteranceEnd: return ["event": "utterance_end"]
        case .cancelNotActive: return ["event": "cancel_not_active"]
        case .serverLatency(let name, let valueMs): return ["event": "server_latency", "name": name, "value_ms": valueMs]
        case .mark(let name): return ["event": "mark", "name": name]
        case .unknown(let type): return ["event": "unknown", "type": type]
        case .malformed(let reason): return ["event": "malformed", "reason": reason]
        }
    }

    private static func keyed(_ name: String, _ turnKey: String?) -> [String: Any] {
        var description: [String: Any] = ["event": name]
        description["turn_key"] = turnKey
        return description
    }
}
