import Foundation
import Testing
import WSCore

@testable import VoiceLoad

@Suite("Telnyx, Plivo and Exotel client dialects: vload plays the provider (docs/telephony.md)")
struct TelephonyStreamClientTests {
    typealias Support = DialectTestSupport

    static func codec(_ provider: TelephonyProvider, parameters: [String: JSONValue] = [:]) -> TelephonyStreamClientCodec {
        TelephonyStreamClientCodec(
            provider: provider,
            call: TelephonyCall(provider: provider, callNumber: 1, parameters: parameters),
            parameters: parameters
        )
    }

    static func object(_ frame: WireFrame?) -> [String: JSONValue] {
        guard case .object(let members)? = Support.json(frame) else { return [:] }
        return members
    }

    @Test func dialectsAreRegisteredWithTheirFormats() throws {
        let expected: [(String, AudioFormat)] = [
            ("telnyx-media-streaming", .mulaw8k), ("plivo-audio-streaming", .mulaw8k), ("exotel-voicebot", .pcm16(8_000)),
        ]
        for (id, format) in expected {
            let client = try DialectRegistry.client(id)
            #expect(client is TelephonyStreamClientDialect && client.id == id)
            #expect(client.inputFormat == format && client.outputFormat == format)
            #expect(client.readySignal == .onOpen && client.turnEndSignal == .audioGap && client.defaultFrameMs == 20)
            #expect(!client.awaitsSessionEndOnHangUp)
            let server = try DialectRegistry.server(id)
            #expect(server is TelephonyStreamServerDialect && server.sessionStart == .onClientStart)
        }
    }

    @Test func telnyxHandshake() {
        var codec = Self.codec(.telnyx, parameters: ["from": .string("+15550001111"), "client_state": .string("YWJj")])
        let frames = codec.framesOnOpen()
        #expect(frames.count == 2)
        #expect(Support.json(frames[0]) == Support.json(#"{"event":"connected","version":"1.0.0"}"#))
        let start = Self.object(frames[1])
        #expect(start["event"] == .string("start") && start["sequence_number"] == .string("1"))
        #expect(start["stream_id"] == .string(codec.call.streamID) && codec.call.streamID.count == 36)
        guard case .object(let body)? = start["start"] else {
            Issue.record("no start body")
            return
        }
        #expect(body["call_control_id"] == .string(codec.call.callID) && codec.call.callID.hasPrefix("v3:"))
        #expect(body["from"] == .string("+15550001111") && body["client_state"] == .string("YWJj"))
        #expect(body["media_format"] == Support.json(#"{"encoding":"PCMU","sample_rate":8000,"channels":1}"#))
    }

    @Test func plivoHandshakeIsStartAlone() {
        var codec = Self.codec(.plivo)
        let frames = codec.framesOnOpen()
        #expect(frames.count == 1)
        let start = Self.object(frames[0])
        #expect(start["event"] == .string("start") && start["sequenceNumber"] == .number(0))
        guard case .object(let body)? = start["start"] else {
            Issue.record("no start body")
            return
        }
        #expect(body["streamId"] == .string(codec.call.streamID) && body["callId"] == .string(codec.call.callID))
        #expect(body["mediaFormat"] == Support.json(#"{"encoding":"audio/x-mulaw","sampleRate":8000}"#))
    }

    @Test func exotelHandshakeCarriesCustomParametersAndToken() {
        let parameters: [String: JSONValue] = [
            "custom_parameters": .object(["tenant": .string("acme")]), "token": .string("t0k"),
            "account_sid": .string("acme1"),
        ]
        var codec = Self.codec(.exotel, parameters: parameters)
        let frames = codec.framesOnOpen()
        #expect(Support.json(frames[0]) == Support.json(#"{"event":"connected"}"#))
        let start = Self.object(frames[1])
        #expect(start["sequence_number"] == .number(1) && start["stream_sid"] == .string(codec.call.streamID))
        guard case .object(let body)? = start["start"] else {
            Issue.record("no start body")
            return
        }
        #expect(body["stream_sid"] == .string(codec.call.streamID) && body["call_sid"] == .string(codec.call.callID))
        #expect(body["account_sid"] == .string("acme1"))
        #expect(body["custom_parameters"] == .object(["tenant": .string("acme"), "token": .string("t0k")]))
        #expect(codec.call.streamID.count == 32)
    }

    @Test func callsOfOneDialectHaveTheirOwnIDs() {
        let first = TelephonyCall(provider: .plivo, callNumber: 1, parameters: [:])
        let second = TelephonyCall(provider: .plivo, callNumber: 2, parameters: [:])
        #expect(first.streamID != second.streamID && first.callID != second.callID)
        #expect(first == TelephonyCall(provider: .plivo, callNumber: 1, parameters: [:]))
    }

    @Test(arguments: TelephonyProvider.allCases)
    func mediaCountsChunksSequenceAndTime(provider: TelephonyProvider) {
        var codec = Self.codec(provider)
        _ = codec.framesOnOpen()
        let bytes = Support.bytes(count: provider.format.byteCount(forMilliseconds: 20), seed: 7)
        let first = Self.object(
            Support.wireFrame(of: codec.audioFrame(PreparedAudio(base64: Support.base64(bytes), byteCount: bytes.count)))
        )
        let second = Self.object(codec.frames(for: .audio(bytes)).first)
        for (index, media) in [first, second].enumerated() {
            #expect(media["event"] == .string("media"))
            #expect(media[provider.streamIDKey] == .string(codec.call.streamID))
            guard case .object(let body)? = media["media"] else {
                Issue.record("no media body")
                continue
            }
            #expect(body["payload"] == .string(Support.base64(bytes)))
            #expect(body["timestamp"] == .string(String(index * 20)))
            let chunk = index + 1
            let sequence = provider.firstSequenceNumber + 1 + index
            if provider == .telnyx {
                #expect(body["chunk"] == .string(String(chunk)) && media["sequence_number"] == .string(String(sequence)))
            } else {
                #expect(body["chunk"] == .number(Double(chunk)) && media[provider.sequenceKey] == .number(Double(sequence)))
            }
        }
    }

    @Test(arguments: TelephonyProvider.allCases)
    func dtmfAndStop(provider: TelephonyProvider) {
        var codec = Self.codec(provider)
        let dtmf = Self.object(codec.frames(for: .dtmf(digit: "#")).first)
        #expect(dtmf["event"] == .string("dtmf"))
        guard case .object(let body)? = dtmf["dtmf"] else {
            Issue.record("no dtmf body")
            return
        }
        #expect(body["digit"] == .string("#"))
        let stop = Self.object(codec.frames(for: .stop).first)
        #expect(stop["event"] == .string("stop") && stop[provider.streamIDKey] == .string(codec.call.streamID))
        #expect(codec.frames(for: .interrupt).isEmpty && codec.frames(for: .commit).isEmpty)
    }

    @Test(arguments: TelephonyProvider.allCases)
    func agentAudioIsDecodedInTheProvidersFormat(provider: TelephonyProvider) {
        var codec = Self.codec(provider)
        let audio = Support.bytes(count: 320, seed: 3)
        let server = TelephonyStreamServerCodec(provider: provider)
        let decoded = codec.receive(server.frames(for: .audio(audio))[0])
        #expect(decoded.events == [.agentAudio(AgentAudioChunk(audio: audio, format: provider.format))])
        #expect(decoded.replies.isEmpty)
        #expect(codec.receive(.text(#"{"event":"\#(provider.agentAudioEvent)","media":{"payload":""}}"#)).events.isEmpty)
        #expect(
            Support.isSingleMalformed(codec.receive(.text(#"{"event":"\#(provider.agentAudioEvent)","media":{"payload":"%%"}}"#)).events)
        )
    }

    @Test func telnyxAndExotelClearIsBargeInWithNoAnswer() {
        for provider in [TelephonyProvider.telnyx, .exotel] {
            var codec = Self.codec(provider)
            let decoded = codec.receive(.text(#"{"event":"clear"}"#))
            #expect(decoded.events == [.agentInterrupted] && decoded.replies.isEmpty)
        }
    }

    @Test func plivoClearAudioIsBargeInAnsweredWithClearedAudio() {
        var codec = Self.codec(.plivo)
        let decoded = codec.receive(.text(#"{"event":"clearAudio","streamId":"s1"}"#))
        #expect(decoded.events == [.agentInterrupted])
        #expect(decoded.replies.count == 1 && decoded.replies.first?.timing == .immediately)
        let cleared = Self.object(decoded.replies.flatMap { codec.replyFrames($0.content) }.first)
        #expect(cleared["event"] == .string("clearedAudio") && cleared["streamId"] == .string(codec.call.streamID))
    }

    @Test func labelsAreConfirmedOncePlayed() {
        var telnyx = Self.codec(.telnyx)
        let mark = telnyx.receive(.text(#"{"event":"mark","mark":{"name":"m1"}}"#))
        #expect(mark.events == [.mark(name: "m1")] && mark.replies.first?.timing == .whenPlayedOut)
        let echo = Self.object(mark.replies.flatMap { telnyx.replyFrames($0.content) }.first)
        #expect(echo["event"] == .string("mark") && echo["mark"] == .object(["name": .string("m1")]))

        var plivo = Self.codec(.plivo)
        let checkpoint = plivo.receive(.text(#"{"event":"checkpoint","streamId":"s1","name":"c1"}"#))
        #expect(checkpoint.events == [.mark(name: "c1")] && checkpoint.replies.first?.timing == .whenPlayedOut)
        let played = Self.object(checkpoint.replies.flatMap { plivo.replyFrames($0.content) }.first)
        #expect(played["event"] == .string("playedStream") && played["name"] == .string("c1"))
        #expect(Support.isSingleMalformed(plivo.receive(.text(#"{"event":"checkpoint"}"#)).events))
    }

    @Test func otherMessagesAreUnknownOrMalformed() {
        var codec = Self.codec(.plivo)
        #expect(codec.receive(.text(#"{"event":"media","media":{"payload":"/w=="}}"#)).events == [.unknown(type: "media")])
        for frame in ["", "x", "[]", #"{"type":"clear"}"#, #"{"event":1}"#] {
            #expect(Support.isSingleMalformed(codec.receive(.text(frame)).events), "\(frame)")
        }
    }
}
