import Testing
import WSClient
import WSCore

@testable import VoiceLoad

@Suite("Deepgram Flux client dialect (docs/dialects.md)")
struct DeepgramFluxClientTests {
    let dialect = DeepgramFluxClientDialect()

    func events(_ text: String) -> [NormalizedEvent] {
        var codec = dialect.makeCodec(parameters: [:])
        return codec.receive(.text(text)).events
    }

    static func turnInfo(_ event: String, transcript: String = "hello there", trigger: String? = nil) -> String {
        let triggerMember = trigger.map { #","trigger":"\#($0)""# } ?? ""
        return #"{"type":"TurnInfo","request_id":"r1","sequence_id":4,"event":"\#(event)","turn_index":0,"#
            + #""audio_window_start":0.48,"audio_window_end":2.08,"transcript":"\#(transcript)","words":[],"#
            + #""end_of_turn_confidence":0.9\#(triggerMember)}"#
    }

    static let window = (startS: 0.48, durationS: 2.08 - 0.48)

    @Test func description() {
        #expect(dialect.id == "deepgram-flux")
        #expect(dialect.readySignal == .event)
        #expect(dialect.turnEndSignal == .event)
        #expect(dialect.defaultFrameMs == 80)
        #expect(!dialect.repliesWithAudio)
        #expect(dialect.keepAlive == nil)
        #expect(dialect.authentication == .header(name: "Authorization", prefix: "Token "))
        #expect(dialect.measures.contains(.endOfTurnMs))
        #expect(!dialect.measures.contains(.eagerEndOfTurnMs))
        #expect(!dialect.measures.contains(.endpointMs))
        #expect(dialect.apiVersion.contains("/v2/listen"))
    }

    @Test func clientMessages() {
        var codec = dialect.makeCodec(parameters: [:])
        #expect(codec.frames(for: .audio([1, 2, 3])) == [.binary([1, 2, 3])])
        #expect(codec.frames(for: .audio([])) == [])
        #expect(codec.frames(for: .commit) == [.text(#"{"type":"ForceEndTurn"}"#)])
        #expect(codec.frames(for: .stop) == [.text(#"{"type":"CloseStream"}"#)])
        #expect(codec.frames(for: .keepAlive) == [], "Flux has no keep-alive message")
        #expect(codec.framesOnOpen() == [])
    }

    @Test func connectedIsReady() {
        #expect(events(#"{"type":"Connected","request_id":"r1","sequence_id":0}"#) == [.sessionReady])
    }

    @Test func startOfTurnAndUpdateAreInterimResults() {
        let interim = SpeechResult(
            text: "hello there",
            isFinal: false,
            speechFinal: false,
            startS: Self.window.startS,
            durationS: Self.window.durationS
        )
        let partial = NormalizedEvent.transcript(role: "user", text: "hello there", isFinal: false)
        #expect(events(Self.turnInfo("StartOfTurn")) == [.userSpeechStarted, .speechResult(interim), partial])
        #expect(events(Self.turnInfo("Update")) == [.speechResult(interim), partial])
        var silent = interim
        silent.text = ""
        #expect(events(Self.turnInfo("Update", transcript: "")) == [.speechResult(silent)])
    }

    @Test func endOfTurnIsTheFinalResultAndTheEndOfTheTurn() {
        var final = SpeechResult(
            text: "hello there",
            isFinal: true,
            speechFinal: false,
            startS: Self.window.startS,
            durationS: Self.window.durationS
        )
        let transcript = NormalizedEvent.transcript(role: "user", text: "hello there", isFinal: true)
        #expect(
            events(Self.turnInfo("EndOfTurn", trigger: "model"))
                == [.speechResult(final), transcript, .userSpeechStopped, .userTurn(.endOfTurn)]
        )
        final.fromFinalize = true
        #expect(
            events(Self.turnInfo("EndOfTurn", trigger: "manual"))
                == [.speechResult(final), transcript, .userSpeechStopped, .userTurn(.endOfTurn)]
        )
    }

    @Test func eagerEndAndResumption() {
        #expect(events(Self.turnInfo("EagerEndOfTurn")) == [.userTurn(.eagerEndOfTurn)])
        #expect(events(Self.turnInfo("TurnResumed")) == [.userTurn(.turnResumed)])
    }

    @Test func anEventFluxMayAddIsUnknownNotMalformed() {
        #expect(events(Self.turnInfo("SomethingNew")) == [.unknown(type: "TurnInfo.SomethingNew")])
        #expect(events(#"{"type":"Metadata"}"#) == [.unknown(type: "Metadata")])
    }

    @Test func badWindowsAndFramesAreMalformed() {
        let backwards = Self.turnInfo("Update").replacingOccurrences(of: "2.08", with: "0.1")
        #expect(DialectTestSupport.isSingleMalformed(events(backwards)))
        #expect(DialectTestSupport.isSingleMalformed(events(#"{"type":"TurnInfo","audio_window_start":0}"#)))
        #expect(DialectTestSupport.isSingleMalformed(events("not json")))
    }

    @Test func errorsWarningsAndConfiguration() {
        #expect(
            events(#"{"type":"Error","sequence_id":3,"code":"INTERNAL_SERVER_ERROR","description":"boom"}"#)
                == [.error(code: "INTERNAL_SERVER_ERROR", message: "boom", fatal: true)]
        )
        #expect(
            events(#"{"type":"ConfigureFailure","request_id":"r","sequence_id":2,"code":"BAD","description":"no"}"#)
                == [.error(code: "BAD", message: "no", fatal: false)]
        )
        #expect(
            events(#"{"type":"Warning","request_id":"r","sequence_id":2,"code":"SLOW","description":"late"}"#)
                == [.warning(code: "SLOW", message: "late")]
        )
        #expect(events(#"{"type":"ConfigureSuccess","request_id":"r","sequence_id":2,"thresholds":{},"keyterms":[]}"#) == [])
    }

    @Test func queryDefaultsAndSessionParameters() throws {
        let base = try WebSocketEndpoint(parsing: "wss://api.deepgram.com/v2/listen")
        #expect(dialect.endpoint(for: base, parameters: [:]).query == "model=flux-general-en&encoding=linear16&sample_rate=16000")
        let tuned = dialect.endpoint(for: base, parameters: ["eot_threshold": .number(0.8), "eager_eot_threshold": .number(0.5)])
        #expect(tuned.query == "model=flux-general-en&encoding=linear16&sample_rate=16000&eager_eot_threshold=0.5&eot_threshold=0.8")
        let mulaw = DeepgramFluxClientDialect(inputFormat: .mulaw8k).endpoint(for: base, parameters: [:])
        #expect(mulaw.query == "model=flux-general-en&encoding=mulaw&sample_rate=8000")
    }

    @Test func theEagerThresholdTurnsOnTheEagerMetric() throws {
        let url = "wss://api.deepgram.com/v2/listen"
        #expect(!(try dialect.configured(parameters: [:], url: url)).measures.contains(.eagerEndOfTurnMs))
        #expect(try dialect.configured(parameters: ["eager_eot_threshold": .number(0.5)], url: url).measures.contains(.eagerEndOfTurnMs))
        #expect(try dialect.configured(parameters: [:], url: url + "?eager_eot_threshold=0.4").measures.contains(.eagerEndOfTurnMs))
        #expect(!(try dialect.configured(parameters: ["eager_eot_threshold": .null], url: url)).measures.contains(.eagerEndOfTurnMs))
        // A `configure` step that sets it mid-stream turns it on too; a null one keeps what was.
        #expect(dialect.reconfigured(midStream: ["eager_eot_threshold": .number(0.5)]).measures.contains(.eagerEndOfTurnMs))
        #expect(!dialect.reconfigured(midStream: ["eager_eot_threshold": .null, "eot_threshold": .number(0.8)]).measures.contains(.eagerEndOfTurnMs))
    }

    @Test func configureCarriesTheThresholdsInTheirObjectAndTheRestBesideType() throws {
        var codec = dialect.makeCodec(parameters: [:])
        let frames = codec.frames(for: .configure(parameters: ["eot_threshold": .number(0.8), "eager_eot_threshold": .number(0.5), "keyterms": .array([.string("vload")])]))
        guard case .text(let text)? = frames.first, frames.count == 1 else {
            Issue.record("one text frame, got \(frames)")
            return
        }
        let message = try DeepgramMessage.parse(.text(text)).get()
        #expect(message.type == "Configure")
        #expect(message.members["thresholds"] == .object(["eot_threshold": .number(0.8), "eager_eot_threshold": .number(0.5)]))
        #expect(message.members["keyterms"] == .array([.string("vload")]))
        #expect(message.members.count == 3)
        // Only keyterms: no thresholds object at all (Flux keeps the ones it has).
        let keyterms = codec.frames(for: .configure(parameters: ["keyterms": .array([.string("x")])]))
        #expect(keyterms == [.text(#"{"keyterms":["x"],"type":"Configure"}"#)])
    }

    @Test func theSimulatorReadsConfigureBackAsTheSameSettingsAndAnswersIt() throws {
        var client = dialect.makeCodec(parameters: [:])
        var server = DeepgramFluxServerCodec(target: "/v2/listen?model=flux-general-en")
        #expect(!server.sendsEagerEndOfTurn)
        let settings: [String: JSONValue] = ["eager_eot_threshold": .number(0.5), "keyterms": .array([.string("vload")])]
        let frame = try #require(client.frames(for: .configure(parameters: settings)).first)
        #expect(try server.receive(frame) == [.configure(parameters: settings)])
        #expect(server.sendsEagerEndOfTurn)
        let answers = server.takeAcknowledgements()
        #expect(answers.count == 1)
        #expect(answers.first.map { events(in: $0) } == [])
    }

    private func events(in frame: WireFrame) -> [NormalizedEvent] {
        var codec = dialect.makeCodec(parameters: [:])
        return codec.receive(frame).events
    }
}
