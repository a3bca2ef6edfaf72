import WSCore

/// The client side of one `pipecat-webrtc` call: the data channel's RTVI JSON and the agent's
/// decoded audio (`WebRTCCallSession` hands each Opus packet over as PCM16 at 48 kHz, a binary
/// frame). Stateless.
struct PipecatWebRTCClientCodec: ClientCodec {
    /// RTVI `client-ready` on the data channel once it opens: the bot's RTVI processor answers
    /// `bot-ready`, the session's ready (docs/webrtc.md).
    mutating func framesOnOpen() -> [WireFrame] {
        [.text(PipecatRTVI.clientReady(id: "vload-client-ready"))]
    }

    mutating func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }

    /// The caller's audio is the Opus stream itself; the data channel carries no message for
    /// the other intents, and hanging up is closing the call.
    mutating func frames(for intent: ClientIntent) -> [WireFrame] { [] }

    /// Binary: the agent's audio (`WebRTCCallerAudio.agentAudio`: digital silence is none);
    /// text: an RTVI message (`PipecatWebRTCRTVI`).
    mutating func receive(_ frame: WireFrame) -> DecodedFrame {
        switch frame {
        case .binary(let pcm): return WebRTCCallerAudio.agentAudio(pcm)
        case .text(let json): return DecodedFrame(events: PipecatWebRTCRTVI.events(json: json))
        }
    }
}

/// The RTVI messages a SmallWebRTC bot sends on the data channel (pipecat-ai 1.14's RTVI
/// processor), beyond those every Pipecat transport message carries (`PipecatTransportMessage`):
/// `bot-ready` → ready, `bot-interrupted` → the barge-in's acknowledgement; the bot's speaking
/// and TTS events are known and measure nothing (its audio does).
enum PipecatWebRTCRTVI {
    static let knownSilently: Set<String> = [
        "bot-started-speaking", "bot-stopped-speaking", "bot-tts-started", "bot-tts-stopped", "bot-llm-started", "bot-llm-stopped",
    ]

    static func events(json: String) -> [NormalizedEvent] {
        guard case .success(let object) = JSONFrame.object(in: .text(json)), let type = object["type"]?.stringValue else {
            return PipecatTransportMessage.events(json: json)
        }
        switch type {
        case "bot-ready": return [.sessionReady]
        case "bot-interrupted": return [.agentInterrupted]
        case _ where knownSilently.contains(type): return []
        default: return PipecatTransportMessage.events(json: json)
        }
    }
}
