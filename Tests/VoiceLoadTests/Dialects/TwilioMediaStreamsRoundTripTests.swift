import Testing

@testable import VoiceLoad

@Suite("Twilio Media Streams round trips between vload-as-Twilio and the agent side")
struct TwilioMediaStreamsRoundTripTests {
    typealias Support = DialectTestSupport

    @Test func aCallFromOpenToStop() throws {
        let clientDialect = TwilioMediaStreamsClientDialect()
        var client = clientDialect.makeCodec(parameters: ["custom_parameters": .object(["lang": .string("de")]), "token": .string("t0k")])
        var server = TwilioMediaStreamsServerDialect().makeCodec(target: "/media")

        #expect(
            try client.framesOnOpen().flatMap { try server.receive($0) } == [
                .start(parameters: ["lang": .string("de"), "token": .string("t0k")])
            ]
        )
        let userAudio = Support.bytes(count: 160, seed: 21)
        let prepared = clientDialect.prepareAudio(userAudio)
        for _ in 0..<5 {
            #expect(try server.receive(Support.wireFrame(of: client.audioFrame(prepared))) == [.audio(userAudio)])
        }

        let agentAudio = Support.bytes(count: 160, seed: 22)
        let audioEvents = server.frames(for: .audio(agentAudio)).flatMap { client.receive($0).events }
        #expect(audioEvents == [.agentAudio(AgentAudioChunk(audio: agentAudio, format: .mulaw8k))])
        #expect(
            client.receive(Support.wireFrame(of: server.audioFrame(TwilioMediaStreamsServerDialect().prepareAudio(agentAudio)))).events
                == [.agentAudio(AgentAudioChunk(audio: agentAudio, format: .mulaw8k))]
        )

        let marks = server.frames(for: .turnComplete(turnKey: "resp_1")).map { client.receive($0) }
        #expect(marks.flatMap(\.events) == [.mark(name: "resp_1")])
        let echoes = marks.flatMap(\.replies)
        #expect(echoes.map(\.timing) == [.whenPlayedOut])
        #expect(try echoes.flatMap { client.replyFrames($0.content) }.flatMap { try server.receive($0) } == [.markPlayed(name: "resp_1")])

        #expect(server.frames(for: .interrupted).flatMap { client.receive($0).events } == [.agentInterrupted])
        #expect(try client.frames(for: .markPlayed(name: "m2")).flatMap { try server.receive($0) } == [.markPlayed(name: "m2")])
        #expect(try client.frames(for: .stop).flatMap { try server.receive($0) } == [.stop])
    }

    @Test func theAgentAnswersOnTheStreamItWasGiven() throws {
        var client = TwilioMediaStreamsClientDialect().makeCodec(parameters: [:])
        var server = TwilioMediaStreamsServerDialect().makeCodec(target: "/")
        let opening = client.framesOnOpen()
        _ = try opening.flatMap { try server.receive($0) }
        let streamSid = TwilioCallIdentity(callNumber: 1, parameters: [:]).streamSid
        guard case .object(let media)? = Support.json(server.frames(for: .audio([0xFF])).first) else {
            Issue.record("no media frame")
            return
        }
        #expect(media["streamSid"] == .string(streamSid))
    }
}
