import Testing
import WSCore

@testable import VoiceLoad

@Suite("Deepgram STT client dialect (docs/dialects.md)")
struct DeepgramSTTClientTests {
    typealias Support = DialectTestSupport
    let dialect = DeepgramSTTClientDialect()

    func events(_ frame: WireFrame) -> [NormalizedEvent] {
        var codec = dialect.makeCodec(parameters: [:])
        let decoded = codec.receive(frame)
        #expect(decoded.replies.isEmpty)
        return decoded.events
    }

    func frames(_ intent: ClientIntent) -> [WireFrame] {
        var codec = dialect.makeCodec(parameters: [:])
        return codec.frames(for: intent)
    }

    static func results(isFinal: Bool, speechFinal: Bool, fromFinalize: Bool = false, transcript: String = "hello there") -> String {
        #"{"type":"Results","channel_index":[0,1],"start":1.02,"duration":1.5,"is_final":\#(isFinal),"speech_final":\#(speechFinal),"#
            + #""from_finalize":\#(fromFinalize),"channel":{"alternatives":[{"transcript":"\#(transcript)","confidence":0.98,"#
            + #""words":[{"word":"hello","start":1.1,"end":1.3,"confidence":0.99,"punctuated_word":"Hello"}]}]},"#
            + #""metadata":{"request_id":"req-1","model_info":{"name":"nova-3","version":"1","arch":"x"},"model_uuid":"u"}}"#
    }

    @Test func description() {
        #expect(dialect.id == "deepgram-stt")
        #expect(dialect.inputFormat == .pcm16(16_000))
        #expect(dialect.outputFormat == dialect.inputFormat)
        #expect(dialect.readySignal == .onOpen)
        #expect(dialect.turnEndSignal == .event)
        #expect(dialect.authentication == .header(name: "Authorization", prefix: "Token "))
        #expect(DeepgramSTTClientDialect(inputFormat: .mulaw8k).outputFormat == .mulaw8k)
    }

    // MARK: server messages

    @Test func finalResultWithSpeechFinalEndsTheUtterance() {
        let result = SpeechResult(text: "hello there", isFinal: true, speechFinal: true, startS: 1.02, durationS: 1.5)
        #expect(
            events(.text(Self.results(isFinal: true, speechFinal: true))) == [
                .speechResult(result), .transcript(role: "user", text: "hello there", isFinal: true), .userSpeechStopped,
            ]
        )
    }

    @Test func finalResultWithoutSpeechFinal() {
        let result = SpeechResult(text: "hello there", isFinal: true, speechFinal: false, startS: 1.02, durationS: 1.5)
        #expect(
            events(.text(Self.results(isFinal: true, speechFinal: false))) == [
                .speechResult(result), .transcript(role: "user", text: "hello there", isFinal: true),
            ]
        )
    }

    @Test func interimResult() {
        let result = SpeechResult(text: "hello there", isFinal: false, speechFinal: false, startS: 1.02, durationS: 1.5)
        #expect(
            events(.text(Self.results(isFinal: false, speechFinal: false))) == [
                .speechResult(result), .transcript(role: "user", text: "hello there", isFinal: false),
            ]
        )
    }

    @Test func resultFromFinalize() {
        let result = SpeechResult(text: "hello there", isFinal: true, speechFinal: false, startS: 1.02, durationS: 1.5, fromFinalize: true)
        #expect(events(.text(Self.results(isFinal: true, speechFinal: false, fromFinalize: true))).first == .speechResult(result))
    }

    @Test func emptyTranscriptIsAResultWithoutTranscript() {
        let result = SpeechResult(text: "", isFinal: true, speechFinal: true, startS: 1.02, durationS: 1.5)
        #expect(
            events(.text(Self.results(isFinal: true, speechFinal: true, transcript: ""))) == [.speechResult(result), .userSpeechStopped]
        )
    }

    @Test(arguments: [
        #"{"type":"Results"}"#,
        #"{"type":"Results","channel":{"alternatives":[]}}"#,
        #"{"type":"Results","channel":[0],"is_final":"yes","start":"1"}"#,
    ])
    func resultWithMissingFieldsHasDefaults(frame: String) {
        #expect(
            events(.text(frame)) == [.speechResult(SpeechResult(text: "", isFinal: false, speechFinal: false, startS: 0, durationS: 0))]
        )
    }

    @Test func speechStartedFromSection8_3() {
        #expect(events(.text(#"{"type":"SpeechStarted","channel":[0,1],"timestamp":9.54}"#)) == [.userSpeechStarted])
    }

    @Test func utteranceEndFromSection8_3() {
        #expect(events(.text(#"{"type":"UtteranceEnd","channel":[0,1],"last_word_end":2.395}"#)) == [.utteranceEnd])
    }

    @Test func metadataFromSection8_3EndsTheSession() {
        let frame = #"{"type":"Metadata","request_id":"…","sha256":"…","created":"…","duration":0.0,"channels":0}"#
        #expect(events(.text(frame)) == [.sessionEnded(reason: "metadata")])
    }

    @Test func jsonInABinaryFrameIsDecoded() {
        #expect(events(.binary(Array(#"{"type":"SpeechStarted","channel":[0,1],"timestamp":1.0}"#.utf8))) == [.userSpeechStarted])
    }

    @Test func errorsAreFatalAndConfigureFailuresAreNot() {
        #expect(
            events(.text(#"{"type":"Error","variant":"error","code":"NET-0001","description":"no audio"}"#))
                == [.error(code: "NET-0001", message: "no audio", fatal: true)]
        )
        #expect(
            events(.text(#"{"type":"ConfigureFailure","request_id":"r"}"#)) == [.error(code: "ConfigureFailure", message: "", fatal: false)]
        )
        #expect(events(.text(#"{"type":"ConfigureSuccess","request_id":"r"}"#)) == [])
    }

    @Test(arguments: ["Welcome", "results", "Finalize"])
    func unknownTypesAreCounted(type: String) {
        #expect(events(.text(#"{"type":"\#(type)"}"#)) == [.unknown(type: type)])
    }

    @Test(arguments: ["", "not json", "[1,2]", #"{"type":3}"#, #"{"channel":{}}"#, #"{"type":"Results""#])
    func malformedFramesAreReported(frame: String) {
        #expect(Support.isSingleMalformed(events(.text(frame))))
    }

    @Test func binaryAudioIsNotJSON() {
        #expect(Support.isSingleMalformed(events(.binary(Support.bytes(count: 640, seed: 3)))))
    }

    // MARK: client messages

    @Test func sendsNothingOnOpen() {
        var codec = dialect.makeCodec(parameters: ["model": .string("nova-3")])
        #expect(codec.framesOnOpen().isEmpty)
    }

    @Test func audioTravelsInBinaryFrames() throws {
        let bytes = Support.bytes(count: 1_280, seed: 5)
        #expect(frames(.audio(bytes)) == [.binary(bytes)])
        #expect(frames(.audio([])) == [])
        let prepared = dialect.prepareAudio(bytes)
        #expect(prepared.byteCount == 1_280)
        var codec = dialect.makeCodec(parameters: [:])
        let frame = codec.audioFrame(prepared)
        #expect(frame.kind == .binary)
        #expect(frame.payload.readableBytesView.elementsEqual(bytes))
    }

    @Test func controlMessagesFromSection8_3() {
        #expect(frames(.keepAlive) == [.text(#"{"type":"KeepAlive"}"#)])
        #expect(frames(.commit) == [.text(#"{"type":"Finalize"}"#)])
        #expect(frames(.stop) == [.text(#"{"type":"CloseStream"}"#)])
    }

    @Test(arguments: [
        ClientIntent.start(parameters: ["model": .string("nova-3")]), .interrupt, .text("hi"),
        .toolResult(callID: "c", name: "n", output: "o"), .markPlayed(name: "m"),
    ])
    func intentsWithoutAMessageSendNothing(intent: ClientIntent) {
        #expect(frames(intent).isEmpty)
    }
}
