import WSCore

/// The client side of one `openai-realtime-webrtc` call: the Realtime API's JSON events on the
/// `oai-events` data channel, read and written by the WebSocket dialect's codec, and the audio
/// as media: the caller's Opus packets, and the agent's decoded ones (`WebRTCCallerAudio`).
///
/// What changes with WebRTC (docs/webrtc.md): no `input_audio_buffer.append` and no audio
/// deltas, and the session's audio formats are the media's, so `session.update` names none.
/// The server streams the answer's audio in real time after `response.done`, so the turn ends
/// when it says the audio is out: `output_audio_buffer.stopped` (or `.cleared`, when cut off),
/// not on `response.done`. Its state: the inner codec's, and the response whose audio is
/// playing, with whether its `response.done` came already.
struct OpenAIRealtimeWebRTCClientCodec: ClientCodec {
    typealias Name = OpenAIRealtimeEventName

    private var realtime: OpenAIRealtimeClientCodec
    /// `output_audio_buffer.started`'s response, until its buffer stops or is cleared.
    private(set) var playingResponseID: String?
    /// Whether that response's `response.done` came while its audio still played.
    private(set) var responseDoneWhilePlaying = false

    init(realtime: OpenAIRealtimeClientCodec) {
        self.realtime = realtime
    }

    mutating func framesOnOpen() -> [WireFrame] {
        realtime.framesOnOpen().map(Self.withoutFormats)
    }

    mutating func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        audio.sharedFrame ?? EncodedFrame(.binary([]))
    }

    /// The audio goes as media; every other intent is the WebSocket dialect's event, the
    /// start's `session.update` without its formats (no other event names one).
    mutating func frames(for intent: ClientIntent) -> [WireFrame] {
        switch intent {
        case .audio: return []
        case .start: return realtime.frames(for: intent).map(Self.withoutFormats)
        default: return realtime.frames(for: intent)
        }
    }

    mutating func framesAfterUtterance() -> [WireFrame] {
        realtime.framesAfterUtterance()
    }

    mutating func receive(_ frame: WireFrame) -> DecodedFrame {
        switch frame {
        case .binary(let pcm):
            return WebRTCCallerAudio.agentAudio(pcm)
        case .text:
            switch OpenAIRealtimeMessage.parse(frame) {
            case .success(let message): return DecodedFrame(events: normalized(message))
            case .failure(let error): return [.malformed(reason: error.reason)]
            }
        }
    }

    /// The WebSocket dialect's events, with the turn's end moved from `response.done` to the
    /// end of its audio.
    mutating func normalized(_ message: OpenAIRealtimeMessage) -> [NormalizedEvent] {
        switch message.type {
        case Name.outputAudioBufferStarted:
            playingResponseID = message.string("response_id")
            responseDoneWhilePlaying = false
            return []
        case Name.outputAudioBufferStopped, Name.outputAudioBufferCleared:
            defer {
                playingResponseID = nil
                responseDoneWhilePlaying = false
            }
            return responseDoneWhilePlaying ? [.turnComplete(turnKey: playingResponseID)] : []
        case Name.responseDone:
            var normalized = realtime.events(of: message)
            let responseID = message.member("response")?["id"]?.stringValue
            // A response still being played ends with its audio; a cancelled one ends now.
            if playingResponseID != nil, playingResponseID == responseID, message.member("response")?["status"]?.stringValue != "cancelled" {
                normalized.removeAll { if case .turnComplete = $0 { return true } else { return false } }
                responseDoneWhilePlaying = true
            }
            return normalized
        default:
            return realtime.events(of: message)
        }
    }

    /// A `session.update` without `audio.input.format` and `audio.output.format`: over WebRTC
    /// the audio is the call's Opus media, whatever a format says. Other frames unchanged.
    static func withoutFormats(_ frame: WireFrame) -> WireFrame {
        guard case .success(var object) = JSONFrame.object(in: frame), object["type"]?.stringValue == Name.sessionUpdate,
            case .object(var session)? = object["session"], case .object(var audio)? = session["audio"]
        else { return frame }
        for direction in ["input", "output"] {
            guard case .object(var side)? = audio[direction] else { continue }
            side["format"] = nil
            audio[direction] = side.isEmpty ? nil : .object(side)
        }
        session["audio"] = audio.isEmpty ? nil : .object(audio)
        object["session"] = .object(session)
        return .text(JSONFrame.text(object))
    }
}
