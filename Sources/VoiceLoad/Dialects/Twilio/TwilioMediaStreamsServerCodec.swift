import Foundation
import WSCore

/// The agent side of one Twilio Media Streams call: captures the `streamSid` from `start` and
/// puts it on everything it sends.
struct TwilioMediaStreamsServerCodec: ServerCodec {
    typealias Name = TwilioEventName

    /// The call's stream SID; empty until `start` arrives.
    private(set) var streamSid = ""
    /// `media` up to the opening quote of `payload`, for the captured stream SID.
    private var mediaPrefix = Self.mediaPrefix(streamSid: "")

    /// `connected` → nothing, `dtmf` → the digit, `start` → `start` with `customParameters` as the
    /// parameters, `media` → audio (µ-law bytes; an empty payload → nothing), `mark` →
    /// `markPlayed`, `stop` → `stop`. Throws `.unknownType` for other events and `.malformed`
    /// for frames that are not Twilio messages.
    mutating func receive(_ frame: WireFrame) throws(DialectDecodingError) -> [ClientIntent] {
        let message: MediaStreamMessage
        switch MediaStreamMessage.parse(frame) {
        case .success(let parsed): message = parsed
        case .failure(let error): throw .malformed(error.reason)
        }
        switch message.event {
        case Name.connected:
            return []
        case Name.dtmf:
            guard let digit = message.member("dtmf")?["digit"]?.stringValue else { throw .malformed("dtmf message without a string digit") }
            return [.dtmf(digit: digit)]
        case Name.start:
            return try startIntents(message)
        case Name.media:
            return try message.callerAudio()
        case Name.mark:
            guard let name = message.markName() else { throw .malformed("mark message without a string name") }
            return [.markPlayed(name: name)]
        case Name.stop:
            return [.stop]
        default:
            throw .unknownType(message.event)
        }
    }

    /// Audio → `media`, `turnComplete` → a `mark` named after the turn key, `interrupted` →
    /// `clear`; Twilio has no message for anything else.
    func frames(for output: AgentOutput) -> [WireFrame] {
        switch output {
        case .audio(let bytes):
            return [.text(mediaPrefix + Data(bytes).base64EncodedString() + #""}}"#)]
        case .turnComplete(let turnKey):
            return [
                .text(
                    JSONFrame.text(["event": JSONValue(Name.mark), "streamSid": JSONValue(streamSid), "mark": ["name": JSONValue(turnKey)]])
                )
            ]
        case .interrupted:
            return [.text(JSONFrame.text(["event": JSONValue(Name.clear), "streamSid": JSONValue(streamSid)]))]
        case .connectionOpened, .userTurnResumed, .sessionStarted, .ready, .userSpeechStarted, .userSpeechStopped, .agentTurnStarted,
            .agentAudioDone, .responseCancelled, .toolCall, .transcript, .speechResult, .utteranceEnd, .error, .ended:
            return []
        }
    }

    func audioFrame(_ audio: PreparedAudio) -> EncodedFrame {
        if let base64 = audio.base64 { return EncodedFrame(.text(mediaPrefix + base64 + #""}}"#)) }
        return audio.sharedFrame ?? EncodedFrame(.text(""))
    }

    private mutating func startIntents(_ message: MediaStreamMessage) throws(DialectDecodingError) -> [ClientIntent] {
        guard let start = message.member("start") else { throw .malformed("start message without start") }
        if let sid = message.object["streamSid"]?.stringValue ?? start["streamSid"]?.stringValue {
            streamSid = sid
            mediaPrefix = Self.mediaPrefix(streamSid: sid)
        }
        switch start["customParameters"] {
        case nil, .some(.null):
            return [.start(parameters: [:])]
        case .some(.object(let custom)):
            return [.start(parameters: custom)]
        case .some(let other):
            throw .malformed("start customParameters is \(JSONFrame.kindName(of: other)), not an object")
        }
    }

    private static func mediaPrefix(streamSid: String) -> String {
        #"{"event":"media","streamSid":"# + JSONText.quoted(streamSid) + #","media":{"payload":""#
    }
}
