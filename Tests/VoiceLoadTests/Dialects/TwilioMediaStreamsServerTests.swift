import Testing

@testable import VoiceLoad

@Suite("Twilio Media Streams server dialect: the agent's side (docs/dialects.md)")
struct TwilioMediaStreamsServerTests {
    typealias Support = DialectTestSupport
    static let start = """
        {"event":"start","sequenceNumber":"1","streamSid":"MZ18ad3ab5a668481ce02b83e7395059f0",
         "start":{"streamSid":"MZ18ad3ab5a668481ce02b83e7395059f0","accountSid":"AC123","callSid":"CA123",
                  "tracks":["inbound"],"customParameters":{"token":"abc","lang":"de"},
                  "mediaFormat":{"encoding":"audio/x-mulaw","sampleRate":8000,"channels":1}}}
        """

    @Test func dialectDefaults() {
        let dialect = TwilioMediaStreamsServerDialect()
        #expect(dialect.id == "twilio-media-streams")
        #expect(dialect.inputFormat == .mulaw8k && dialect.outputFormat == .mulaw8k)
        #expect(dialect.sessionStart == .onClientStart)
        #expect(dialect.prepareAudio([0xFF]).base64 == "/w==")
    }

    @Test func decodesTwilioMessages() throws {
        var codec = TwilioMediaStreamsServerCodec()
        #expect(try codec.receive(.text(#"{"event":"connected","protocol":"Call","version":"1.0.0"}"#)) == [])
        #expect(try codec.receive(.text(Self.start)) == [.start(parameters: ["token": .string("abc"), "lang": .string("de")])])
        #expect(codec.streamSid == "MZ18ad3ab5a668481ce02b83e7395059f0")
        let audio = [UInt8](repeating: 0xFF, count: 160)
        #expect(
            try codec.receive(
                .text(
                    #"{"event":"media","sequenceNumber":"3","streamSid":"MZ1","media":{"track":"inbound","chunk":"1","timestamp":"20","payload":"\#(Support.base64(audio))"}}"#
                )
            )
                == [.audio(audio)]
        )
        #expect(try codec.receive(.binary(Array(#"{"event":"media","media":{"payload":"AQID"}}"#.utf8))) == [.audio([1, 2, 3])])
        #expect(try codec.receive(.text(#"{"event":"media","media":{"payload":""}}"#)) == [])
        #expect(
            try codec.receive(
                .text(#"{"event":"dtmf","sequenceNumber":"5","streamSid":"MZ1","dtmf":{"track":"inbound_track","digit":"5"}}"#)
            ) == [.dtmf(digit: "5")]
        )
        #expect(
            try codec.receive(.text(#"{"event":"mark","sequenceNumber":"6","streamSid":"MZ1","mark":{"name":"utt-17-end"}}"#)) == [
                .markPlayed(name: "utt-17-end")
            ]
        )
        #expect(
            try codec.receive(
                .text(#"{"event":"stop","sequenceNumber":"7","streamSid":"MZ1","stop":{"accountSid":"AC1","callSid":"CA1"}}"#)
            ) == [.stop]
        )
    }

    @Test func startWithoutCustomParameters() throws {
        var codec = TwilioMediaStreamsServerCodec()
        #expect(try codec.receive(.text(#"{"event":"start","start":{"streamSid":"MZ9"}}"#)) == [.start(parameters: [:])])
        #expect(codec.streamSid == "MZ9")
    }

    @Test func rejectsWhatIsNotATwilioMessage() {
        var codec = TwilioMediaStreamsServerCodec()
        #expect(throws: DialectDecodingError.unknownType("clear")) { try codec.receive(.text(#"{"event":"clear"}"#)) }
        for frame in [
            "", "x", "[]", #"{"type":"start"}"#, #"{"event":false}"#, #"{"event":"start"}"#,
            #"{"event":"start","start":{"customParameters":[1]}}"#, #"{"event":"media"}"#,
            #"{"event":"media","media":{"payload":"%%"}}"#, #"{"event":"mark","mark":{"name":1}}"#,
        ] {
            do {
                _ = try codec.receive(.text(frame))
                Issue.record("\(frame): expected an error")
            } catch {
                guard case .malformed = error else {
                    Issue.record("\(frame): expected malformed, got \(error)")
                    continue
                }
            }
        }
    }

    @Test func encodesAudioMarksAndClearOnTheCapturedStream() throws {
        var codec = TwilioMediaStreamsServerCodec()
        _ = try codec.receive(.text(Self.start))
        let audio = Support.bytes(count: 160, seed: 3)
        let expected =
            #"{"event":"media","streamSid":"MZ18ad3ab5a668481ce02b83e7395059f0","media":{"payload":"\#(Support.base64(audio))"}}"#
        #expect(codec.frames(for: .audio(audio)) == [.text(expected)])
        #expect(Support.wireFrame(of: codec.audioFrame(TwilioMediaStreamsServerDialect().prepareAudio(audio))) == .text(expected))
        #expect(
            codec.frames(for: .turnComplete(turnKey: "resp_sim-1_1")).map { Support.json($0) } == [
                Support.json(
                    #"{"event":"mark","streamSid":"MZ18ad3ab5a668481ce02b83e7395059f0","mark":{"name":"resp_sim-1_1"}}"#
                )
            ]
        )
        #expect(
            codec.frames(for: .interrupted).map { Support.json($0) } == [
                Support.json(
                    #"{"event":"clear","streamSid":"MZ18ad3ab5a668481ce02b83e7395059f0"}"#
                )
            ]
        )
        let silent: [AgentOutput] = [
            .connectionOpened(sessionID: "s"), .sessionStarted(sessionID: "s", conversationID: "c"), .ready,
            .userSpeechStarted(audioMs: 1), .userSpeechStopped(audioMs: 2), .agentTurnStarted(turnKey: "t", latencyMs: 1),
            .agentAudioDone(turnKey: "t"), .responseCancelled(turnKey: "t"), .toolCall(name: "n", status: "s"),
            .transcript(TranscriptLine(role: "agent", text: "x")), .utteranceEnd(lastWordEndS: 1), .error(code: nil, message: "e"),
            .ended(transcript: []),
        ]
        for output in silent { #expect(codec.frames(for: output) == [], "\(output)") }
    }

    @Test func streamSidIsEscapedAndEmptyBeforeStart() throws {
        var codec = TwilioMediaStreamsServerCodec()
        #expect(codec.frames(for: .audio([0xFF])) == [.text(#"{"event":"media","streamSid":"","media":{"payload":"/w=="}}"#)])
        _ = try codec.receive(.text(#"{"event":"start","streamSid":"MZ\"x\\","start":{}}"#))
        #expect(
            Support.json(codec.frames(for: .audio([0xFF])).first)
                == Support.json(
                    #"{"event":"media","streamSid":"MZ\"x\\","media":{"payload":"/w=="}}"#
                )
        )
    }
}
