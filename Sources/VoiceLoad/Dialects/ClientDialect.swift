import WSClient
import WSCore

/// When a dialect's session is ready for user audio (docs/dialects.md, "Ready" column).
package enum ReadySignal: Sendable, Hashable {
    /// The WebSocket open itself: `T_ready = T_open`, and `ready_ms` is reported as n/a.
    case onOpen
    /// A `session.ready` event from the server.
    case event
}

/// How the end of an agent turn is known.
package enum TurnEndSignal: Sendable, Hashable {
    /// The dialect has an explicit end-of-turn event (`turn.complete` or `agent.speech_ended`).
    case event
    /// Nothing on the wire: derived from a quiet gap in agent audio plus a drained playback
    /// cursor (docs/dialects.md).
    case audioGap
    /// An end-of-turn event the server does not always send (ElevenLabs
    /// `agent_response_complete`): the event ends the turn when it comes, the quiet gap when
    /// it does not.
    case eventOrAudioGap

    /// Whether an end-of-turn event ends the turn.
    package var endsByEvent: Bool { self != .audioGap }
    /// Whether a quiet gap ends the turn.
    package var endsByQuietGap: Bool { self != .event }
}

/// The client side of a wire protocol: what it is (formats, signals, authentication) and a
/// factory of per-connection codecs. No sockets, clocks or actors.
package protocol ClientDialect: Sendable {
    /// The dialect's identifier on the command line (`datagrid`).
    var id: String { get }
    /// The provider's API version this dialect speaks, as `vload dialects` shows it: the
    /// version the provider names (a path's `v1`, a protocol version on the wire, the SDK the
    /// dialect was proven against), or that the provider names none.
    var apiVersion: String { get }
    /// The server message types (the values of the message's type field) the dialect's codec
    /// reads by name, for the conformance suite's check that the provider's SDK still defines
    /// each (docs/conformance.md); empty where the dialect publishes no such list.
    var typesRead: [String] { get }
    /// The format user audio must be sent in.
    var inputFormat: AudioFormat { get }
    /// The format agent audio arrives in.
    var outputFormat: AudioFormat { get }
    var readySignal: ReadySignal { get }
    var turnEndSignal: TurnEndSignal { get }
    /// How the API key travels on the upgrade request.
    var authentication: AuthenticationStyle { get }

    /// One frame of user audio (already in `inputFormat`), prepared once per run and shared
    /// by every client.
    func prepareAudio(_ bytes: [UInt8]) -> PreparedAudio
    /// The frame the caller streams when it has nothing to say (between clips, while it
    /// listens), prepared once per run: by default `frameMs` of `inputFormat`'s silence byte
    /// through `prepareAudio`; a WebRTC dialect sends Opus's own silent frame (`OpusSilence`).
    func silenceFrame(frameMs: Int) -> PreparedAudio
    /// A clip's frames of user audio in order, prepared once per run: each frame alone
    /// (`prepareAudio`) by default; a dialect whose codec carries state from frame to frame
    /// (Opus, `pipecat-webrtc`) encodes them as one stream.
    func prepareClip(_ frames: [[UInt8]]) -> [PreparedAudio]
    /// A clip's prepared frames as the agent hears them, PCM16 at `inputFormat`'s rate on the
    /// clip's own timeline, when the dialect's encoding changes the audio beyond the input format
    /// (Opus); nil when the input format's audio is what is heard.
    func heardSamples(of frames: [PreparedAudio]) -> [Int16]?
    /// The one frame length the dialect can send, when it has one (`pipecat-webrtc`: 20 ms
    /// Opus); nil when any is fine.
    var requiredFrameMs: Int? { get }
    /// A codec for one connection, holding whatever per-connection state the protocol needs
    /// (sequence numbers, captured ids). `parameters` are the scenario's session parameters.
    func makeCodec(parameters: [String: JSONValue]) -> any ClientCodec

    /// Frame length when neither the scenario nor the command line sets one.
    var defaultFrameMs: Int { get }
    /// Whether the server answers with audio; false for speech-to-text, whose answer to an
    /// utterance is its final transcript (the end of the utterance by endpointing).
    var repliesWithAudio: Bool { get }
    /// The metrics this dialect can measure; the others are reported as absent.
    var measures: Set<MetricName> { get }
    /// Whether the server reports a barge-in's cancelled response (`int_cancel_ms`).
    var cancelsResponses: Bool { get }
    /// The REST pre-step request, for dialects that have one; nil otherwise.
    func restSetupRequest(parameters: [String: JSONValue], token: String?) -> RESTSetupRequest?
    /// Reads the answer to the REST pre-step `request`; nil when it is not a valid answer or
    /// names no WebSocket to connect to.
    func restSetup(from responseBody: [UInt8], request: RESTSetupRequest) -> RESTSetup?
    /// How every session of a run at `url` starts, when the dialect decides it rather than the
    /// URL's scheme: a custom dialect's `pre_request` runs before each session, at `url` when
    /// that is http(s), else at its own address. nil (the default) leaves it to `url`: the
    /// REST step when http(s), else the WebSocket. Throws a one-line reason.
    func connectionTarget(url: String, parameters: [String: JSONValue], token: String?) throws(InputError) -> ConnectionTarget?
    /// The URL to connect to for a user-given `base`: dialects whose configuration travels in
    /// the query (Deepgram `encoding=…`, OpenAI `model=…`) add what is missing.
    func endpoint(for base: WebSocketEndpoint, parameters: [String: JSONValue]) -> WebSocketEndpoint
    /// The URL for one session (`session` is unique within a run, from 1): dialects whose
    /// path names the session (ADK `/ws/{id}`) give every session its own.
    func endpoint(for base: WebSocketEndpoint, parameters: [String: JSONValue], session: Int) -> WebSocketEndpoint
    /// This dialect as the scenario's session parameters configure it for a run at `url` (OpenAI
    /// takes its audio formats from the session); throws a one-line reason when the parameters
    /// ask for what the dialect or the service cannot do. The default is the dialect itself.
    func configured(parameters: [String: JSONValue], url: String) throws(InputError) -> any ClientDialect
    /// This dialect once the scenario's `configure` steps have sent `settings` mid-stream (Flux
    /// measures the eager end of turn when one sets `eager_eot_threshold`). The default is the
    /// dialect itself.
    func reconfigured(midStream settings: [String: JSONValue]) -> any ClientDialect
    /// Whether hanging up waits for the server's end-of-session event after the stop message
    /// (Datagrid `ended`, Deepgram `Metadata`). False where the real peer closes the socket
    /// itself and the server under test sends nothing (Twilio: vload plays Twilio, which sends
    /// `stop` and closes at once).
    var awaitsSessionEndOnHangUp: Bool { get }
    /// The dialect's keep-alive: how often `frames(for: .keepAlive)` goes out; nil for none.
    var keepAlive: KeepAlivePolicy? { get }
    /// Whether `frames(for: .commit)` asks the server to flush its transcript and the result
    /// says so (Deepgram `Finalize`, `from_finalize`): what a `finalize` step needs.
    var reportsFinalizedResults: Bool { get }
    /// Headers the dialect adds to the upgrade request of a session at `endpoint` (Twilio's
    /// `X-Twilio-Signature` over the exact URL). None by default.
    func upgradeHeaders(for endpoint: WebSocketEndpoint, parameters: [String: JSONValue]) -> [HTTPHeaderField]
}

extension ClientDialect {
    package var typesRead: [String] { [] }

    package func prepareClip(_ frames: [[UInt8]]) -> [PreparedAudio] { frames.map(prepareAudio) }

    package func silenceFrame(frameMs: Int) -> PreparedAudio {
        prepareAudio(inputFormat.silence(milliseconds: frameMs))
    }

    package func heardSamples(of frames: [PreparedAudio]) -> [Int16]? { nil }

    package var requiredFrameMs: Int? { nil }

    package var defaultFrameMs: Int { 40 }

    package var repliesWithAudio: Bool { true }

    package var cancelsResponses: Bool { false }

    /// By default: connect and setup; ready when the dialect has a ready event; first-audio
    /// metrics when it answers with audio, transcript metrics when it does not.
    package var measures: Set<MetricName> {
        var metrics = MetricName.core
        if readySignal == .event { metrics.formUnion([.readyMs]) }
        metrics.formUnion(repliesWithAudio ? MetricName.audioReply : MetricName.speechToText)
        return metrics
    }

    package func endpoint(for base: WebSocketEndpoint, parameters: [String: JSONValue]) -> WebSocketEndpoint { base }

    package func configured(parameters: [String: JSONValue], url: String) throws(InputError) -> any ClientDialect { self }

    package func reconfigured(midStream settings: [String: JSONValue]) -> any ClientDialect { self }

    package var awaitsSessionEndOnHangUp: Bool { true }

    package var keepAlive: KeepAlivePolicy? { nil }

    package var reportsFinalizedResults: Bool { false }

    package func upgradeHeaders(for endpoint: WebSocketEndpoint, parameters: [String: JSONValue]) -> [HTTPHeaderField] { [] }

    package func endpoint(for base: WebSocketEndpoint, parameters: [String: JSONValue], session: Int) -> WebSocketEndpoint {
        endpoint(for: base, parameters: parameters)
    }

    package func restSetupRequest(parameters: [String: JSONValue], token: String?) -> RESTSetupRequest? { nil }

    package func restSetup(from responseBody: [UInt8], request: RESTSetupRequest) -> RESTSetup? { nil }

    package func connectionTarget(url: String, parameters: [String: JSONValue], token: String?) throws(InputError) -> ConnectionTarget? {
        nil
    }
}
