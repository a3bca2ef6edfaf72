import VoiceLoad

/// What a dialect can show on the wire: a fault it has no message for would be injected and
/// counted, yet leave no trace a client could classify, so it is refused up front.
extension FaultPlan {
    /// Rejects, with one line, a fault dialect `id` cannot express: `error_event` without an
    /// in-band error message (ADK seed and legacy, Twilio, Deepgram STT), `drop_turn_end` without
    /// end-of-turn messages (Datagrid and Twilio, whose turn ends with a gap in the audio),
    /// `slow_ready` without a ready message, `silence`, `slow_audio` and `audio_gap` on a dialect
    /// that answers with transcripts, `oversized` over WebRTC (a data channel message is no
    /// WebSocket frame).
    /// An unknown id is left to the dialect lookup.
    package func checkSupported(byDialect id: String) throws(InputError) {
        guard !isEmpty, let server = try? DialectRegistry.server(id), let client = try? DialectRegistry.client(id) else { return }
        for fault in faults {
            if let reason = Self.unsupportedReason(fault, server: server, client: client) {
                throw InputError("fault \(fault.kindName) cannot be injected on dialect \(id): \(reason)")
            }
        }
    }

    /// Why `fault` cannot show on this dialect; nil when it can. Asks a fresh server codec for
    /// the frames the fault sends or withholds.
    static func unsupportedReason(_ fault: InjectedFault, server: any ServerDialect, client: any ClientDialect) -> String? {
        var codec = server.makeCodec(target: "/")
        switch fault {
        case .slowReady:
            guard client.readySignal == .event, !codec.frames(for: .ready).isEmpty else {
                return "it has no ready message (the session is ready when the socket opens)"
            }
        case .errorEvent:
            let error = AgentOutput.error(code: InjectedFault.errorCode, message: InjectedFault.errorMessage)
            guard !codec.frames(for: error).isEmpty else { return "it has no in-band error message" }
        case .dropTurnEnd:
            _ = codec.frames(for: .agentTurnStarted(turnKey: "probe", latencyMs: 0))
            let ends = codec.frames(for: .agentAudioDone(turnKey: "probe")) + codec.frames(for: .turnComplete(turnKey: "probe"))
            guard client.turnEndSignal == .event, !ends.isEmpty else {
                return client.turnEndSignal == .audioGap
                    ? "it has no end-of-turn message (a turn ends with a gap in the audio)"
                    : "it has no end-of-turn message"
            }
        case .silence, .slowAudio, .audioGap:
            guard server.speaks else { return "it answers with transcripts, not audio" }
        case .oversized:
            guard !server.carriesOverWebRTC else { return "a WebRTC call's data channel message is no WebSocket frame" }
        case .refuse, .close, .stall, .malformed:
            break
        }
        return nil
    }
}
