import WSCore

/// The `pipecat-webrtc` dialect, server side: a Pipecat bot behind its SmallWebRTC transport, as
/// the simulator plays it over WebRTC (docs/webrtc.md). The session starts on the caller's RTVI
/// `client-ready` and is ready with `bot-ready`; the caller's Opus, decoded to PCM16 at 48 kHz,
/// is the audio; the reply goes out as 20 ms Opus frames encoded once per run (one encoder per
/// clip, as a bot's output track encodes a stream) and shared by every session.
package struct PipecatWebRTCServerDialect: WebRTCServerDialect {
    package let id = "pipecat-webrtc"
    package let sessionStart = ServerSessionStart.onClientStart
    package var webRTCSignalling: WebRTCOfferSignalling? { .smallWebRTC }

    package init() {}

    package func makeCodec(target: String) -> any ServerCodec {
        PipecatWebRTCServerCodec()
    }
}

/// The bot side of one `pipecat-webrtc` call: RTVI text on the data channel, the caller's audio
/// as the PCM its Opus decodes to (a binary frame). Stateless.
struct PipecatWebRTCServerCodec: ServerCodec {
    /// Text: RTVI `client-ready` starts the session (anything else on the channel is ignored, as
    /// the bot's RTVI processor ignores what it does not handle); binary: the caller's audio.
    mutating func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        switch frame {
        case .binary(let pcm):
            return pcm.isEmpty ? [] : [.audio(pcm)]
        case .text:
            switch JSONFrame.typedObject(in: frame) {
            case .success(let message): return message.type == "client-ready" ? [.start(parameters: [:])] : []
            case .failure(let error): throw .malformed(error.reason)
            }
        }
    }

    /// The RTVI messages pipecat-ai 1.14's RTVI processor sends for what the agent does:
    /// `bot-ready`, the user's and the bot's speaking events, `bot-interrupted`. The rest has no
    /// message on this channel (the audio is RTP; transcripts are not sent).
    func frames(for output: AgentOutput) -> [WireFrame] {
        let type: String
        var data: [String: JSONValue]?
        switch output {
        case .ready:
            type = "bot-ready"
            data = ["version": .string(PipecatRTVI.protocolVersion)]
        case .userSpeechStarted: type = "user-started-speaking"
        case .userSpeechStopped: type = "user-stopped-speaking"
        case .agentTurnStarted: type = "bot-started-speaking"
        case .agentAudioDone: type = "bot-stopped-speaking"
        case .interrupted: type = "bot-interrupted"
        case .connectionOpened, .sessionStarted, .userTurnResumed, .audio, .turnComplete, .responseCancelled, .toolCall, .transcript,
            .speechResult, .utteranceEnd, .error, .ended:
            return []
        }
        var message: [String: JSONValue] = ["label": .string(PipecatRTVI.label), "type": .string(type)]
        if let data { message["data"] = .object(data) }
        return [.text(JSONFrame.text(message))]
    }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }
}
