import Testing

@testable import VoiceLoad

@Suite("Twilio Media Streams client dialect: vload as Twilio (docs/dialects.md)")
struct TwilioMediaStreamsClientTests {
    typealias Support = DialectTestSupport
    static let identity = TwilioCallIdentity(
        accountSid: "AC00000000000000000000000000000001",
        callSid: "CA00000000000000000000000000000002",
        streamSid: "MZ00000000000000000000000000000003"
    )

    private func makeCodec(_ parameters: [String: JSONValue] = [:]) -> TwilioMediaStreamsClientCodec {
        TwilioMediaStreamsClientCodec(identity: Self.identity, parameters: parameters)
    }

    @Test func defaultsMatchTheProtocol() {
        let dialect = TwilioMediaStreamsClientDialect()
        #expect(dialect.id == "twilio-media-streams")
        #expect(dialect.inputFormat == .mulaw8k && dialect.outputFormat == .mulaw8k)
        #expect(dialect.readySignal == .onOpen)
        #expect(dialect.turnEndSignal == .audioGap)
        #expect(dialect.authentication == .sessionParameter(name: "token"))
        #expect(dialect.defaultFrameMs == 20)
        let prepared = dialect.prepareAudio([0xFF, 0x7F])
        #expect(prepared.sharedFrame == nil && prepared.base64 == "/38=" && prepared.byteCount == 2)
    }

    @Test func openingFramesAreConnectedThenStart() {
        var codec = makeCodec([
            "custom_parameters": .object(["agent": .string("support"), "run": .number(3)]),
            "token": .string("secret-token"),
        ])
        let frames = codec.framesOnOpen()
        #expect(frames.count == 2)
        #expect(frames.allSatisfy { Support.text($0) != nil })
        #expect(Support.json(frames.first) == Support.json(#"{"event":"connected","protocol":"Call","version":"1.0.0"}"#))
        #expect(
            Support.json(frames.last)
                == Support.json(
                    """
                    {"event":"start","sequenceNumber":"1","streamSid":"MZ00000000000000000000000000000003",
                     "start":{"streamSid":"MZ00000000000000000000000000000003","accountSid":"AC00000000000000000000000000000001",
                              "callSid":"CA00000000000000000000000000000002","tracks":["inbound"],
                              "customParameters":{"agent":"support","run":3,"token":"secret-token"},
                              "mediaFormat":{"encoding":"audio/x-mulaw","sampleRate":8000,"channels":1}}}
                    """
                )
        )
        #expect(codec.nextSequenceNumber == 2)
    }

    @Test func customParametersRules() {
        #expect(TwilioMediaStreamsClientCodec.customParameters(from: [:]) == [:])
        #expect(TwilioMediaStreamsClientCodec.customParameters(from: ["token": .string("t")]) == ["token": .string("t")])
        #expect(
            TwilioMediaStreamsClientCodec.customParameters(from: [
                "custom_parameters": .object(["token": .string("given")]), "token": .string("t"),
            ]) == ["token": .string("given")]
        )
        #expect(TwilioMediaStreamsClientCodec.customParameters(from: ["custom_parameters": .string("x"), "other": .bool(true)]) == [:])
    }

    @Test func sidsAreTwilioShapedDistinctPerCallAndDeterministic() {
        func sids(of codec: any ClientCodec) -> TwilioCallIdentity? { (codec as? TwilioMediaStreamsClientCodec)?.identity }
        let dialect = TwilioMediaStreamsClientDialect()
        let first = sids(of: dialect.makeCodec(parameters: [:]))
        let second = sids(of: dialect.makeCodec(parameters: [:]))
        #expect(first == TwilioCallIdentity(callNumber: 1, parameters: [:]))
        #expect(second == TwilioCallIdentity(callNumber: 2, parameters: [:]))
        #expect(first?.callSid != second?.callSid && first?.streamSid != second?.streamSid)
        #expect(first?.accountSid == second?.accountSid)
        #expect(sids(of: TwilioMediaStreamsClientDialect().makeCodec(parameters: [:])) == first)
        for identity in [first, second].compactMap({ $0 }) {
            for (sid, prefix) in [(identity.accountSid, "AC"), (identity.callSid, "CA"), (identity.streamSid, "MZ")] {
                #expect(sid.hasPrefix(prefix) && sid.count == 34)
                #expect(sid.dropFirst(2).allSatisfy { "0123456789abcdef".contains($0) })
            }
        }
        let given = TwilioCallIdentity(callNumber: 5, parameters: ["account_sid": .string("ACfeedfeedfeedfeedfeedfeedfeedfeed")])
        #expect(given.accountSid == "ACfeedfeedfeedfeedfeedfeedfeedfeed")
    }

    @Test func mediaCountsSequenceChunkAndTimestampAsStrings() {
        var codec = makeCodec()
        _ = codec.framesOnOpen()
        let frame = Support.bytes(count: 160, seed: 1)
        let prepared = TwilioMediaStreamsClientDialect().prepareAudio(frame)
        let first = Support.wireFrame(of: codec.audioFrame(prepared))
        #expect(
            first
                == .text(
                    #"{"event":"media","sequenceNumber":"2","streamSid":"MZ00000000000000000000000000000003","media":{"track":"inbound","chunk":"1","timestamp":"0","payload":"\#(Support.base64(frame))"}}"#
                )
        )
        for index in 2...150 {
            let json = Support.json(Support.wireFrame(of: codec.audioFrame(prepared)))
            #expect(
                json
                    == Support.json(
                        """
                        {"event":"media","sequenceNumber":"\(index + 1)","streamSid":"MZ00000000000000000000000000000003",
                         "media":{"track":"inbound","chunk":"\(index)","timestamp":"\((index - 1) * 20)","payload":"\(Support.base64(frame))"}}
                        """
                    )
            )
        }
        // A 40 ms frame advances the timestamp by 40; intents count like prepared frames.
        let long = [UInt8](repeating: 0xFF, count: 320)
        _ = codec.frames(for: .audio(long))
        let next = Support.json(codec.frames(for: .audio(frame)).first)
        #expect(
            next
                == Support.json(
                    """
                    {"event":"media","sequenceNumber":"153","streamSid":"MZ00000000000000000000000000000003",
                     "media":{"track":"inbound","chunk":"152","timestamp":"3040","payload":"\(Support.base64(frame))"}}
                    """
                )
        )
    }

    @Test func marksAreEchoedWhenPlayedOutAndNumberedWhenSent() {
        var codec = makeCodec()
        _ = codec.framesOnOpen()
        _ = codec.audioFrame(PreparedAudio(base64: "", byteCount: 160))
        let decoded = codec.receive(
            .text(#"{"event":"mark","streamSid":"MZ00000000000000000000000000000003","mark":{"name":"utt-17-end"}}"#)
        )
        #expect(decoded.events == [.mark(name: "utt-17-end")])
        // The echo is built when it is sent, after the media sent while the audio played.
        #expect(decoded.replies == [CodecReply(sending: .markPlayed(name: "utt-17-end"), timing: .whenPlayedOut)])
        #expect(
            Support.json(Support.wireFrame(of: codec.audioFrame(PreparedAudio(base64: "", byteCount: 160))))?.member("sequenceNumber")
                == .string("3")
        )
        #expect(
            Support.json(decoded.replies.flatMap { codec.replyFrames($0.content) }.first)
                == Support.json(
                    #"{"event":"mark","sequenceNumber":"4","streamSid":"MZ00000000000000000000000000000003","mark":{"name":"utt-17-end"}}"#
                )
        )
        #expect(
            Support.json(codec.frames(for: .stop).first)
                == Support.json(
                    """
                    {"event":"stop","sequenceNumber":"5","streamSid":"MZ00000000000000000000000000000003",
                     "stop":{"accountSid":"AC00000000000000000000000000000001","callSid":"CA00000000000000000000000000000002"}}
                    """
                )
        )
        #expect(
            Support.json(Support.wireFrame(of: codec.audioFrame(PreparedAudio(base64: "", byteCount: 160))))?.member("sequenceNumber")
                == .string("6")
        )
    }

    @Test func intentsWithoutATwilioMessage() {
        var codec = makeCodec()
        for intent in [ClientIntent.interrupt, .text("hi"), .commit, .keepAlive, .toolResult(callID: "c", name: "n", output: "o")] {
            #expect(codec.frames(for: intent).isEmpty)
        }
        #expect(codec.nextSequenceNumber == 1)
        #expect(
            Support.json(codec.frames(for: .start(parameters: ["token": .string("t")])).first)?.member("sequenceNumber") == .string("1")
        )
    }

    @Test func agentMediaIsMuLawAudio() {
        var codec = makeCodec()
        let silence = [UInt8](repeating: 0xFF, count: 160)
        #expect(
            codec.receive(.text(#"{"event":"media","streamSid":"MZ1","media":{"payload":"\#(Support.base64(silence))"}}"#)).events
                == [.agentAudio(AgentAudioChunk(byteCount: 160, durationUs: 20_000, rmsLevel: 0))]
        )
        let loud = [UInt8](repeating: 0x80, count: 400)
        let events = codec.receive(
            .binary(Array(#"{"event":"media","streamSid":"MZ1","media":{"payload":"\#(Support.base64(loud))"}}"#.utf8))
        ).events
        guard case .agentAudio(let chunk)? = events.first, events.count == 1 else {
            Issue.record("expected one audio event, got \(events)")
            return
        }
        #expect(chunk.byteCount == 400 && chunk.durationUs == 50_000 && chunk.rmsLevel > 0.9 && chunk.turnKey == nil)
        #expect(codec.receive(.text(#"{"event":"media","streamSid":"MZ1","media":{"payload":""}}"#)).events == [])
    }

    @Test func clearIsBargeIn() {
        var codec = makeCodec()
        let decoded = codec.receive(.text(#"{"event":"clear","streamSid":"MZ00000000000000000000000000000003"}"#))
        #expect(decoded.events == [.agentInterrupted] && decoded.replies.isEmpty)
    }

    @Test func unknownEventsAreCounted() {
        var codec = makeCodec()
        #expect(codec.receive(.text(#"{"event":"dtmf","dtmf":{"digit":"5"}}"#)).events == [.unknown(type: "dtmf")])
        #expect(codec.receive(.text(#"{"event":"transcript","text":"hi"}"#)).events == [.unknown(type: "transcript")])
    }

    @Test(arguments: [
        "", "{", "[]", #"{"streamSid":"MZ1"}"#, #"{"event":3}"#,
        #"{"event":"media","streamSid":"MZ1"}"#, #"{"event":"media","media":{"payload":7}}"#,
        #"{"event":"media","media":{"payload":"@@@"}}"#, #"{"event":"mark","mark":{}}"#, #"{"event":"mark"}"#,
    ])
    func malformedFramesNeverCrash(frame: String) {
        var codec = makeCodec()
        let decoded = codec.receive(.text(frame))
        #expect(Support.isSingleMalformed(decoded.events) && decoded.replies.isEmpty)
    }
}

extension JSONValue {
    fileprivate func member(_ key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
}
