import Testing

@testable import VoiceLoad

@Suite("Telnyx, Plivo and Exotel server dialects: the agent's side, as Pipecat's serializers write it")
struct TelephonyStreamServerTests {
    typealias Support = DialectTestSupport

    /// The provider's handshake from vload's own client codec, into a fresh server codec.
    static func startedCodec(
        _ provider: TelephonyProvider,
        parameters: [String: JSONValue] = [:]
    ) throws
        -> (server: TelephonyStreamServerCodec, client: TelephonyStreamClientCodec, intents: [ClientIntent])
    {
        var client = TelephonyStreamClientTests.codec(provider, parameters: parameters)
        var server = TelephonyStreamServerCodec(provider: provider)
        var intents: [ClientIntent] = []
        for frame in client.framesOnOpen() { intents += try server.receive(frame) }
        return (server, client, intents)
    }

    @Test(arguments: TelephonyProvider.allCases)
    func roundTripOfEveryCallerMessage(provider: TelephonyProvider) throws {
        var (server, client, intents) = try Self.startedCodec(provider)
        #expect(intents == [.start(parameters: [:])])
        #expect(server.streamID == client.call.streamID)
        let audio = Support.bytes(count: 160, seed: 11)
        #expect(try server.receive(client.frames(for: .audio(audio))[0]) == [.audio(audio)])
        #expect(try server.receive(client.frames(for: .dtmf(digit: "7"))[0]) == [.dtmf(digit: "7")])
        #expect(try server.receive(client.frames(for: .markPlayed(name: "turn-1"))[0]) == [.markPlayed(name: "turn-1")])
        #expect(try server.receive(client.frames(for: .stop)[0]) == [.stop])
    }

    @Test func exotelCustomParametersBecomeTheStartParameters() throws {
        let (_, _, intents) = try Self.startedCodec(.exotel, parameters: ["custom_parameters": .object(["lang": .string("hi")])])
        #expect(intents == [.start(parameters: ["lang": .string("hi")])])
    }

    @Test func agentMessagesHaveTheSerializersShapes() throws {
        let audio: [UInt8] = [0xFF, 0x7F, 0x00]
        let (telnyx, _, _) = try Self.startedCodec(.telnyx)
        #expect(Support.json(telnyx.frames(for: .audio(audio)).first) == Support.json(#"{"event":"media","media":{"payload":"/38A"}}"#))
        #expect(Support.json(telnyx.frames(for: .interrupted).first) == Support.json(#"{"event":"clear"}"#))
        #expect(
            Support.json(telnyx.frames(for: .turnComplete(turnKey: "t1")).first) == Support.json(#"{"event":"mark","mark":{"name":"t1"}}"#)
        )

        var (plivo, plivoClient, _) = try Self.startedCodec(.plivo)
        let id = plivoClient.call.streamID
        #expect(
            Support.json(plivo.frames(for: .audio(audio)).first)
                == Support.json(
                    #"{"event":"playAudio","media":{"contentType":"audio/x-mulaw","sampleRate":8000,"payload":"/38A"},"streamId":"\#(id)"}"#
                )
        )
        #expect(Support.json(plivo.frames(for: .interrupted).first) == Support.json(#"{"event":"clearAudio","streamId":"\#(id)"}"#))
        #expect(
            Support.json(plivo.frames(for: .turnComplete(turnKey: "t1")).first)
                == Support.json(#"{"event":"checkpoint","streamId":"\#(id)","name":"t1"}"#)
        )
        let prepared = TelephonyStreamServerDialect(provider: .plivo).prepareAudio(audio)
        #expect(Support.wireFrame(of: plivo.audioFrame(prepared)) == plivo.frames(for: .audio(audio)).first)
        #expect(try plivo.receive(plivoClient.receive(.text(#"{"event":"clearAudio"}"#)).replies[0].frame) == [])

        let (exotel, exotelClient, _) = try Self.startedCodec(.exotel)
        let sid = exotelClient.call.streamID
        #expect(
            Support.json(exotel.frames(for: .audio(audio)).first)
                == Support.json(#"{"event":"media","stream_sid":"\#(sid)","media":{"payload":"/38A"}}"#)
        )
        #expect(Support.json(exotel.frames(for: .interrupted).first) == Support.json(#"{"event":"clear","stream_sid":"\#(sid)"}"#))
        #expect(exotel.frames(for: .ready).isEmpty && exotel.frames(for: .error(code: nil, message: "x")).isEmpty)
    }

    @Test func rejectsWhatIsNotTheProvidersMessage() {
        var codec = TelephonyStreamServerCodec(provider: .telnyx)
        #expect(throws: DialectDecodingError.unknownType("clear")) { try codec.receive(.text(#"{"event":"clear"}"#)) }
        #expect(throws: DialectDecodingError.unknownType("clearedAudio")) { try codec.receive(.text(#"{"event":"clearedAudio"}"#)) }
        for frame in [
            "", "[]", #"{"event":"start"}"#, #"{"event":"media","media":{"payload":"%%"}}"#, #"{"event":"dtmf"}"#,
            #"{"event":"mark","mark":{}}"#,
        ] {
            #expect(throws: (any Error).self, "\(frame)") { try codec.receive(.text(frame)) }
        }
    }
}
