import Testing

@testable import WebRTC

/// The answerer's end of the data channel: the caller's OPEN acknowledged on its stream, then
/// that stream's messages; everything else counted as ignored.
@Suite("Accepted data channel")
struct AcceptedDataChannelTests {
    static let open = DataChannelOpen(label: "vload")

    @Test("OPEN on stream 0: ACK on stream 0, opened; texts, an empty one and binary on that stream; replies on it")
    func acceptsOpen() {
        var channel = AcceptedDataChannel()
        #expect(channel.text("early") == nil)
        let step = channel.receive(streamID: 0, ppid: DataChannelPPID.dcep.rawValue, bytes: DCEPMessage.open(Self.open).serialized)
        #expect(step.replies == [DataChannel.Outbound(streamID: 0, ppid: .dcep, bytes: [DCEPMessage.ackType])])
        #expect(step.events == [.opened] && channel.streamID == 0 && channel.open?.label == "vload")
        #expect(channel.receive(streamID: 0, ppid: DataChannelPPID.string.rawValue, bytes: Array("hi".utf8)).events == [.text("hi")])
        #expect(channel.receive(streamID: 0, ppid: DataChannelPPID.emptyString.rawValue, bytes: [0]).events == [.text("")])
        #expect(channel.receive(streamID: 0, ppid: DataChannelPPID.binary.rawValue, bytes: [1, 2]).events == [.binary([1, 2])])
        #expect(channel.text("bot-ready") == DataChannel.Outbound(streamID: 0, ppid: .string, bytes: Array("bot-ready".utf8)))
        #expect(channel.text("") == DataChannel.Outbound(streamID: 0, ppid: .emptyString, bytes: [0]))
    }

    @Test("a second OPEN is acknowledged and ignored; other streams, ACKs, unknown PPIDs and bad DCEP are ignored")
    func ignoresTheRest() {
        var channel = AcceptedDataChannel()
        let text = DataChannelPPID.string.rawValue
        #expect(channel.receive(streamID: 0, ppid: text, bytes: [0x41]).events == [.ignored("a message on stream 0")])
        _ = channel.receive(streamID: 1, ppid: DataChannelPPID.dcep.rawValue, bytes: DCEPMessage.open(Self.open).serialized)
        let second = channel.receive(streamID: 3, ppid: DataChannelPPID.dcep.rawValue, bytes: DCEPMessage.open(Self.open).serialized)
        #expect(second.replies.map(\.streamID) == [3] && second.events.count == 1 && channel.streamID == 1)
        #expect(channel.receive(streamID: 3, ppid: text, bytes: [0x41]).events == [.ignored("a message on stream 3")])
        #expect(channel.receive(streamID: 1, ppid: DataChannelPPID.dcep.rawValue, bytes: [DCEPMessage.ackType]).replies.isEmpty)
        #expect(channel.receive(streamID: 1, ppid: 99, bytes: [1]).events == [.ignored("PPID 99 on stream 1")])
        let malformed = channel.receive(streamID: 1, ppid: DataChannelPPID.dcep.rawValue, bytes: [])
        #expect(malformed.replies.isEmpty && malformed.events.count == 1)
        #expect(channel.receive(streamID: 1, ppid: text, bytes: [0x41]).events == [.text("A")])
    }
}
