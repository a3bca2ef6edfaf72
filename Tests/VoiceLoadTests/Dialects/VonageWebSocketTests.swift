import Foundation
import Testing

@testable import VoiceLoad

@Suite("Vonage WebSocket dialect: binary PCM audio, JSON control messages (docs/telephony.md)")
struct VonageWebSocketTests {
    typealias Support = DialectTestSupport

    static let format = AudioFormat.pcm16(16_000)

    @Test func dialectsAreRegistered() throws {
        let client = try DialectRegistry.client("vonage-websocket")
        #expect(client is VonageWebSocketClientDialect)
        #expect(client.inputFormat == Self.format && client.outputFormat == Self.format && client.defaultFrameMs == 20)
        #expect(client.readySignal == .onOpen && client.turnEndSignal == .audioGap && !client.awaitsSessionEndOnHangUp)
        #expect(client.authentication == .sessionParameter(name: "token"))
        let server = try DialectRegistry.server("vonage-websocket")
        #expect(server is VonageWebSocketServerDialect && server.sessionStart == .onClientStart)
        let prepared = client.prepareAudio([1, 2])
        #expect(Support.wireFrame(of: prepared.sharedFrame!) == .binary([1, 2]))
    }

    @Test func connectedCarriesContentTypeAndHeaders() {
        let codec = VonageWebSocketClientCodec(
            format: Self.format,
            parameters: [
                "custom_parameters": .object(["tenant": .string("acme")]), "token": .string("t0k"),
            ]
        )
        #expect(
            Support.json(codec.framesOnOpen().first)
                == Support.json(
                    #"{"event":"websocket:connected","content-type":"audio/l16;rate=16000","tenant":"acme","token":"t0k"}"#
                )
        )
    }

    @Test func callerMessages() {
        let codec = VonageWebSocketClientCodec(format: Self.format, parameters: [:])
        #expect(codec.frames(for: .audio([1, 2, 3, 4])) == [.binary([1, 2, 3, 4])])
        #expect(codec.frames(for: .audio([])).isEmpty)
        #expect(
            Support.json(codec.frames(for: .dtmf(digit: "5")).first)
                == Support.json(#"{"event":"websocket:dtmf","digit":"5","duration":100}"#)
        )
        #expect(codec.frames(for: .stop).isEmpty, "Vonage hangs up by closing the socket")
        #expect(
            Support.json(codec.frames(for: .markPlayed(name: #"{"turn":"t1"}"#)).first)
                == Support.json(#"{"event":"websocket:notify","payload":{"turn":"t1"}}"#)
        )
    }

    @Test func agentMessages() {
        let codec = VonageWebSocketClientCodec(format: Self.format, parameters: [:])
        let audio = Support.bytes(count: 640, seed: 5)
        #expect(codec.receive(.binary(audio)).events == [.agentAudio(AgentAudioChunk(audio: audio, format: Self.format))])
        #expect(codec.receive(.binary([])).events.isEmpty)
        let clear = codec.receive(.text(#"{"action":"clear"}"#))
        #expect(clear.events == [.agentInterrupted])
        #expect(clear.replies == [CodecReply(.text(#"{"event":"websocket:cleared"}"#))])
        let notify = codec.receive(.text(#"{"action":"notify","payload":{"turn":"t1"}}"#))
        #expect(notify.events == [.mark(name: #"{"turn":"t1"}"#)] && notify.replies.first?.timing == .whenPlayedOut)
        #expect(codec.receive(.text(#"{"action":"talk"}"#)).events == [.unknown(type: "talk")])
        for frame in ["", "x", #"{"event":"websocket:cleared"}"#, #"{"action":"notify"}"#] {
            #expect(Support.isSingleMalformed(codec.receive(.text(frame)).events), "\(frame)")
        }
    }

    @Test func serverRoundTrip() throws {
        let client = VonageWebSocketClientCodec(format: Self.format, parameters: ["token": .string("t0k")])
        let server = VonageWebSocketServerCodec()
        #expect(try server.receive(client.framesOnOpen()[0]) == [.start(parameters: ["token": .string("t0k")])])
        #expect(try server.receive(.binary([9, 9])) == [.audio([9, 9])])
        #expect(try server.receive(client.frames(for: .dtmf(digit: "#"))[0]) == [.dtmf(digit: "#")])
        #expect(try server.receive(.text(#"{"event":"websocket:dtmf","dtmf":{"digit":7}}"#)) == [.dtmf(digit: "7")])
        #expect(try server.receive(client.frames(for: .markPlayed(name: #"{"turn":"t1"}"#))[0]) == [.markPlayed(name: #"{"turn":"t1"}"#)])
        let cleared = client.receive(server.frames(for: .interrupted)[0])
        #expect(cleared.events == [.agentInterrupted])
        #expect(try server.receive(cleared.replies[0].frame) == [])
        let notify = client.receive(server.frames(for: .turnComplete(turnKey: "t1"))[0])
        #expect(notify.events == [.mark(name: #"{"turn":"t1"}"#)])
        #expect(server.frames(for: .audio([1, 2])) == [.binary([1, 2])])
        #expect(server.frames(for: .ready).isEmpty)
        #expect(throws: DialectDecodingError.unknownType("websocket:other")) { try server.receive(.text(#"{"event":"websocket:other"}"#)) }
        #expect(throws: (any Error).self) { try server.receive(.text(#"{"event":"websocket:dtmf"}"#)) }
    }
}
