import Foundation
import NIOCore
import WSClient
import WSCore

/// Drives one client codec through a script of sends and receives, outside any socket: what
/// `vload wire` does, so that code no one here wrote (the official SDKs' message models, the
/// pipecat-ai serializers) can check every frame the codec writes and feed it every frame a
/// real server sends (docs/conformance.md).
///
/// One script line is one JSON object:
///
///     {"send": "open"}                          the frames sent when the socket opens
///     {"send": "start"}                         the start intent, with the scenario's session
///     {"send": "audio", "ms": 40}               one audio frame: a 440 Hz tone in the input format
///     {"send": "end_of_utterance"}              what follows a `say` clip (OpenAI manual turns: commit)
///     {"send": "interrupt" | "commit" | "keep_alive" | "stop"}
///     {"send": "text", "text": "hi"}
///     {"send": "tool_result", "call_id": "c1", "name": "get_weather", "output": "{}"}
///     {"send": "playback_truncated", "audio_end_ms": 1200}
///     {"send": "mark_played", "name": "m1"}
///     {"send": "dtmf", "digit": "5"}
///     {"receive": {"text": "…"}} or {"receive": {"binary": "<base64>"}}
///     {"endpoint": "wss://host/path"}          the URL the dialect connects to for that base
///
/// and is answered by one JSON line: the frames written (`frames`), the raw audio of an audio
/// send (`audio`, base64), the normalized events of a receive (`events`) and the replies the
/// protocol asks for (`replies`). A line that is not a valid action is answered with `error`.
package struct WireScript {
    private var codec: any ClientCodec
    private let dialect: any ClientDialect
    private let parameters: [String: JSONValue]

    /// The script for `dialect` as the scenario's session `parameters` configure it for a run
    /// at `url`; throws what a run would refuse.
    package init(dialect unconfigured: any ClientDialect, parameters: [String: JSONValue], url: String = "") throws(InputError) {
        let dialect = try unconfigured.configured(parameters: parameters, url: url)
        self.dialect = dialect
        self.parameters = parameters
        self.codec = dialect.makeCodec(parameters: parameters)
    }

    /// The answer to one script line, as one line of JSON.
    package mutating func answerText(line: String) -> String {
        JSONFrame.text(answer(line: line))
    }

    /// The answer to one script line, as a JSON object.
    mutating func answer(line: String) -> [String: JSONValue] {
        let action: WireAction
        switch WireAction.parse(line) {
        case .success(let parsed): action = parsed
        case .failure(let error): return ["error": .string(error.reason)]
        }
        switch action {
        case .open:
            return ["frames": .array(codec.framesOnOpen().map { .object(Self.describe($0)) })]
        case .audio(let milliseconds):
            let bytes = Self.tone(milliseconds: milliseconds, format: dialect.inputFormat)
            let frame = codec.audioFrame(dialect.prepareAudio(bytes))
            return ["frames": [.object(Self.describe(frame))], "audio": JSONValue(Data(bytes).base64EncodedString())]
        case .endOfUtterance:
            return ["frames": .array(codec.framesAfterUtterance().map { .object(Self.describe($0)) })]
        case .intent(let intent):
            return ["frames": .array(codec.frames(for: Self.withScenarioParameters(intent, parameters)).map { .object(Self.describe($0)) })]
        case .typesRead:
            return ["types": .array(dialect.typesRead.map(JSONValue.string))]
        case .endpoint(let base):
            do {
                return ["url": JSONValue(dialect.endpoint(for: try WebSocketEndpoint(parsing: base), parameters: parameters).urlString)]
            } catch {
                return ["error": JSONValue(error.description)]
            }
        case .receive(let frame):
            let decoded = codec.receive(frame)
            let replies = decoded.replies.flatMap { codec.replyFrames($0.content) }.map { JSONValue.object(Self.describe($0)) }
            return ["events": .array(decoded.events.map { .object($0.wireDescription) }), "replies": .array(replies)]
        }
    }

    /// `start` carries the scenario's session parameters, as a client's start does.
    private static func withScenarioParameters(_ intent: ClientIntent, _ parameters: [String: JSONValue]) -> ClientIntent {
        if case .start = intent { return .start(parameters: parameters) }
        return intent
    }

    /// A frame as written to the socket: `{"text": …}` or `{"binary": "<base64>"}`.
    static func describe(_ frame: EncodedFrame) -> [String: JSONValue] {
        let bytes = frame.payload.getBytes(at: frame.payload.readerIndex, length: frame.payload.readableBytes) ?? []
        switch frame.kind {
        case .text: return ["text": .string(String(decoding: bytes, as: UTF8.self))]
        case .binary: return ["binary": .string(Data(bytes).base64EncodedString())]
        }
    }

    /// `{"text": …}` or `{"binary": "<base64>"}`.
    static func describe(_ frame: WireFrame) -> [String: JSONValue] {
        switch frame {
        case .text(let text): return ["text": .string(text)]
        case .binary(let bytes): return ["binary": .string(Data(bytes).base64EncodedString())]
        }
    }

    /// `milliseconds` of a 440 Hz tone at a third of full scale, encoded in `format`: audio
    /// whose bytes a checker can compare after its own decoding.
    static func tone(milliseconds: Int, format: AudioFormat) -> [UInt8] {
        let count = format.sampleCount(forMilliseconds: milliseconds)
        let samples = (0..<count).map { index in
            Int16(10_000 * sin(2 * Double.pi * 440 * Double(index) / Double(format.sampleRateHz)))
        }
        return AudioEncoder.encode(samples, as: format)
    }
}
