import WSCore

/// The `openai-realtime-webrtc` dialect, server side: OpenAI Realtime over WebRTC as the
/// simulator plays it (docs/webrtc.md). The offer comes to `POST /v1/realtime/calls`
/// (`OpenAIRealtimeCallForm`); the session starts on the caller's `session.update` on the
/// `oai-events` channel; the caller's Opus, decoded to PCM16 at 48 kHz, is the audio; the reply
/// goes out as the run's shared 20 ms Opus frames, as for `pipecat-webrtc`.
package struct OpenAIRealtimeWebRTCServerDialect: WebRTCServerDialect {
    package let id = "openai-realtime-webrtc"
    package let sessionStart = ServerSessionStart.onClientStart
    /// The caller runs the tools, as over the WebSocket.
    package let awaitsToolResults = true
    package var webRTCSignalling: WebRTCOfferSignalling? { .openAIRealtimeCalls }

    package init() {}

    package func makeCodec(target: String) -> any ServerCodec {
        OpenAIRealtimeWebRTCServerCodec(realtime: OpenAIRealtimeServerCodec(inputFormat: inputFormat, outputFormat: outputFormat))
    }
}

/// The service's side of one `openai-realtime-webrtc` call: the WebSocket dialect's server codec
/// (`session.created`, `session.updated`, the speech events, `response.created`, tool calls,
/// transcripts, errors) on the data channel, with what WebRTC changes. No audio in events: the
/// reply is media, and the caller's audio comes decoded (a binary frame). The reply is made
/// whole before it plays, so it is announced as the service announces a generated answer:
/// `response.created`, `output_audio_buffer.started` and `response.done` (completed) as its
/// audio starts, `output_audio_buffer.stopped` once the audio has all left, and
/// `output_audio_buffer.cleared` when a barge-in cuts it off (its response is done already).
struct OpenAIRealtimeWebRTCServerCodec: ServerCodec {
    typealias Name = OpenAIRealtimeEventName

    private var realtime: OpenAIRealtimeServerCodec

    init(realtime: OpenAIRealtimeServerCodec) {
        self.realtime = realtime
    }

    /// Binary: the caller's decoded audio; text: a client event, read as over the WebSocket.
    mutating func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        if case .binary(let pcm) = frame { return pcm.isEmpty ? [] : [.audio(pcm)] }
        return try realtime.receive(frame)
    }

    mutating func frames(for output: AgentOutput) -> [WireFrame] {
        switch output {
        case .agentTurnStarted(let turnKey, _):
            return realtime.frames(for: output) + [Self.bufferEvent(Name.outputAudioBufferStarted, responseID: turnKey)]
                + realtime.frames(for: .turnComplete(turnKey: turnKey))
        case .agentAudioDone(let turnKey):
            return [Self.bufferEvent(Name.outputAudioBufferStopped, responseID: turnKey)]
        case .responseCancelled(let turnKey):
            return [Self.bufferEvent(Name.outputAudioBufferCleared, responseID: turnKey)]
        case .audio, .turnComplete:
            return []
        default:
            return realtime.frames(for: output)
        }
    }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }

    /// `output_audio_buffer.started`, `.stopped` or `.cleared` for a response.
    private static func bufferEvent(_ type: String, responseID: String) -> WireFrame {
        .text(JSONFrame.text(["type": .string(type), "response_id": .string(responseID)]))
    }
}
