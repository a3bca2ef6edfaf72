/// The answerer's end of a data channel (RFC 8832 §6) as a value: the caller opens it with a
/// DATA_CHANNEL_OPEN on a stream of its choice, this end acknowledges it and from then on takes
/// that stream's messages and answers on it. One channel: a second OPEN is acknowledged (RFC
/// 8832 requires it) and its messages are ignored, as are messages on streams never opened.
package struct AcceptedDataChannel: Sendable, Hashable {
    /// The channel the caller opened: its stream and OPEN; nil until the OPEN arrives.
    package private(set) var streamID: UInt16?
    package private(set) var open: DataChannelOpen?

    package init() {}

    /// A message from the caller.
    package mutating func receive(streamID: UInt16, ppid: UInt32, bytes: [UInt8]) -> DataChannel.Step {
        var step = DataChannel.Step()
        guard let kind = DataChannelPPID(rawValue: ppid) else {
            step.events.append(.ignored("PPID \(ppid) on stream \(streamID)"))
            return step
        }
        if kind == .dcep {
            switch Result(catching: { () throws(DCEPParseError) in try DCEPMessage(parsing: bytes) }) {
            case .failure(let error):
                step.events.append(.ignored(error.description))
            case .success(.open(let peerOpen)):
                step.replies.append(DataChannel.Outbound(streamID: streamID, ppid: .dcep, bytes: DCEPMessage.ack.serialized))
                if self.streamID == nil {
                    self.streamID = streamID
                    open = peerOpen
                    step.events.append(.opened)
                } else {
                    step.events.append(.ignored("a second channel \"\(peerOpen.label)\" on stream \(streamID)"))
                }
            case .success(.ack):
                step.events.append(.ignored("DATA_CHANNEL_ACK on stream \(streamID): this end opens no channel"))
            }
            return step
        }
        guard streamID == self.streamID else {
            step.events.append(.ignored("a message on stream \(streamID)"))
            return step
        }
        step.events.append(DataChannel.Event(kind: kind, bytes: bytes))
        return step
    }

    /// A text message to the caller on the channel's stream, nil before it opened one.
    package func text(_ text: String) -> DataChannel.Outbound? {
        streamID.map { DataChannel.Outbound.text(text, streamID: $0) }
    }
}

extension DataChannel.Outbound {
    /// A text message (PPID 51; an empty one as PPID 56 with one byte, RFC 8831 §6.6).
    static func text(_ text: String, streamID: UInt16) -> Self {
        let bytes = Array(text.utf8)
        return bytes.isEmpty ? Self(streamID: streamID, ppid: .emptyString, bytes: [0]) : Self(streamID: streamID, ppid: .string, bytes: bytes)
    }
}

extension DataChannel.Event {
    /// What a user message of `kind` carries (not DCEP).
    init(kind: DataChannelPPID, bytes: [UInt8]) {
        switch kind {
        case .string: self = .text(String(decoding: bytes, as: UTF8.self))
        case .emptyString: self = .text("")
        case .binary: self = .binary(bytes)
        case .emptyBinary: self = .binary([])
        case .dcep: self = .ignored("DCEP")
        }
    }
}

/// One end of a data channel as `WebRTCDataChannelLink` drives it: the caller's `DataChannel`,
/// which opens the channel, or the answerer's `AcceptedDataChannel`, which waits for the OPEN.
package protocol DataChannelEnd: Sendable {
    /// What this end sends once SCTP is up (the caller's OPEN; nothing for the answerer).
    mutating func opening() -> [DataChannel.Outbound]
    mutating func receive(streamID: UInt16, ppid: UInt32, bytes: [UInt8]) -> DataChannel.Step
    func text(_ text: String) -> DataChannel.Outbound?
}

extension DataChannel: DataChannelEnd {
    package mutating func opening() -> [DataChannel.Outbound] { [start()] }
}

extension AcceptedDataChannel: DataChannelEnd {
    package func opening() -> [DataChannel.Outbound] { [] }
}
