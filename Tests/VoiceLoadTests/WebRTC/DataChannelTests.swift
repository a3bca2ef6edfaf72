import Testing

@testable import WebRTC

/// DCEP's messages (RFC 8832 §5) against bytes laid out by hand, and the data channel's value.
@Suite("Data channel and DCEP")
struct DataChannelTests {
    /// DATA_CHANNEL_OPEN for "rtvi", reliable, priority 256, no protocol (RFC 8832 §5.1).
    static let rtviOpen: [UInt8] = [0x03, 0x00, 0x01, 0x00, 0, 0, 0, 0, 0x00, 0x04, 0x00, 0x00] + Array("rtvi".utf8)

    @Test("OPEN and ACK are written as RFC 8832 lays them out, and read back")
    func dcepBytes() throws {
        let open = DCEPMessage.open(DataChannelOpen(label: "rtvi"))
        #expect(open.serialized == Self.rtviOpen)
        #expect(try DCEPMessage(parsing: Self.rtviOpen) == open)
        #expect(DCEPMessage.ack.serialized == [0x02])
        #expect(try DCEPMessage(parsing: [0x02]) == .ack)
        let partial = DataChannelOpen(
            label: "oai-events", channelProtocol: "json", channelType: 0x81, priority: 512, reliabilityParameter: 0x0102_0304)
        let bytes = DCEPMessage.open(partial).serialized
        #expect(Array(bytes[..<12]) == [0x03, 0x81, 0x02, 0x00, 0x01, 0x02, 0x03, 0x04, 0x00, 0x0A, 0x00, 0x04])
        #expect(try DCEPMessage(parsing: bytes) == .open(partial))
    }

    @Test("malformed DCEP messages are one-line typed errors")
    func dcepErrors() {
        #expect(throws: DCEPParseError.empty) { try DCEPMessage(parsing: []) }
        #expect(throws: DCEPParseError.unknownType(0x07)) { try DCEPMessage(parsing: [0x07]) }
        #expect(throws: DCEPParseError.truncated(11)) { try DCEPMessage(parsing: Array(Self.rtviOpen[..<11])) }
        #expect(throws: DCEPParseError.lengthMismatch(15)) { try DCEPMessage(parsing: Array(Self.rtviOpen[..<15])) }
        #expect(throws: DCEPParseError.notUTF8) {
            try DCEPMessage(parsing: Array(Self.rtviOpen[..<12]) + [0xFF, 0xFE, 0x41, 0x41])
        }
        #expect(DCEPParseError.truncated(11).description == "DCEP OPEN is 11 bytes, shorter than its 12-byte header")
    }

    @Test("the channel sends OPEN on its stream, opens on the ACK, and reads text and binary messages")
    func channelOpens() {
        var channel = DataChannel(open: DataChannelOpen(label: "rtvi"), isDTLSClient: false)
        #expect(channel.streamID == 1 && DataChannel(open: DataChannelOpen(label: "x"), isDTLSClient: true).streamID == 0)
        #expect(channel.text("early") == nil)
        #expect(channel.start() == DataChannel.Outbound(streamID: 1, ppid: .dcep, bytes: Self.rtviOpen))
        #expect(channel.state == .opening)
        #expect(channel.text("hi") == DataChannel.Outbound(streamID: 1, ppid: .string, bytes: Array("hi".utf8)))
        #expect(channel.text("") == DataChannel.Outbound(streamID: 1, ppid: .emptyString, bytes: [0]))
        #expect(channel.receive(streamID: 1, ppid: 50, bytes: [0x02]) == DataChannel.Step(events: [.opened]))
        #expect(channel.state == .open)
        #expect(channel.receive(streamID: 1, ppid: 51, bytes: Array("héllo".utf8)).events == [.text("héllo")])
        #expect(channel.receive(streamID: 1, ppid: 56, bytes: [0]).events == [.text("")])
        #expect(channel.receive(streamID: 1, ppid: 53, bytes: [1, 2]).events == [.binary([1, 2])])
        #expect(channel.receive(streamID: 1, ppid: 57, bytes: [0]).events == [.binary([])])
    }

    @Test("a message before the ACK opens the channel; other streams, PPIDs and a peer's OPEN are ignored or acknowledged")
    func channelEdges() {
        var channel = DataChannel(open: DataChannelOpen(label: "rtvi"), isDTLSClient: true)
        _ = channel.start()
        #expect(channel.receive(streamID: 0, ppid: 51, bytes: Array("a".utf8)).events == [.opened, .text("a")])
        #expect(channel.receive(streamID: 2, ppid: 51, bytes: [0x61]).events == [.ignored("a message on stream 2")])
        #expect(channel.receive(streamID: 0, ppid: 99, bytes: [0x61]).events == [.ignored("PPID 99 on stream 0")])
        #expect(channel.receive(streamID: 0, ppid: 50, bytes: [0x02]).events == [.ignored("DATA_CHANNEL_ACK on stream 0")])
        #expect(channel.receive(streamID: 0, ppid: 50, bytes: [0x09]).events == [.ignored("DCEP message type 9 is neither OPEN (3) nor ACK (2)")])
        let peerOpen = channel.receive(streamID: 3, ppid: 50, bytes: Self.rtviOpen)
        #expect(peerOpen.replies == [DataChannel.Outbound(streamID: 3, ppid: .dcep, bytes: [0x02])])
        #expect(peerOpen.events == [.ignored("the peer's channel \"rtvi\" on stream 3")])
    }
}
