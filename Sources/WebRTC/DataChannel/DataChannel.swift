/// The one data channel vload opens (RFC 8831, RFC 8832), as a value: the OPEN it sends, what
/// each message from the peer means, and the messages its text becomes. No I/O: the transport
/// sends `Outbound`s over SCTP and reports the events.
package struct DataChannel: Sendable, Hashable {
    package enum State: Sendable, Hashable {
        case idle
        /// OPEN sent, no ACK yet (messages may already be sent: RFC 8832 §6).
        case opening
        case open
    }

    /// A message for SCTP: its stream, payload protocol identifier and bytes.
    package struct Outbound: Sendable, Hashable {
        package var streamID: UInt16
        package var ppid: DataChannelPPID
        package var bytes: [UInt8]
    }

    /// What the peer's messages mean for the caller.
    package enum Event: Sendable, Hashable {
        /// The peer acknowledged the OPEN.
        case opened
        case text(String)
        case binary([UInt8])
        /// A message vload does not use (another stream's, a malformed DCEP message, a PPID it
        /// does not know), with why: counted, never fatal.
        case ignored(String)
    }

    /// What one message from the peer produced.
    package struct Step: Sendable, Hashable {
        package var events: [Event] = []
        package var replies: [Outbound] = []
    }

    package let streamID: UInt16
    package let open: DataChannelOpen
    package private(set) var state = State.idle

    /// The channel on its first stream: even for the DTLS client, odd for the server (RFC 8832 §6).
    package init(open: DataChannelOpen, isDTLSClient: Bool) {
        self.open = open
        self.streamID = isDTLSClient ? 0 : 1
    }

    /// The DATA_CHANNEL_OPEN, once the association is up.
    package mutating func start() -> Outbound {
        state = .opening
        return Outbound(streamID: streamID, ppid: .dcep, bytes: DCEPMessage.open(open).serialized)
    }

    /// A text message to send (PPID 51; an empty one as PPID 56 with one byte, RFC 8831 §6.6),
    /// nil before `start`.
    package func text(_ text: String) -> Outbound? {
        state == .idle ? nil : Outbound.text(text, streamID: streamID)
    }

    /// A message from the peer.
    package mutating func receive(streamID: UInt16, ppid: UInt32, bytes: [UInt8]) -> Step {
        var step = Step()
        guard let kind = DataChannelPPID(rawValue: ppid) else {
            step.events.append(.ignored("PPID \(ppid) on stream \(streamID)"))
            return step
        }
        if kind == .dcep {
            let message: DCEPMessage
            do {
                message = try DCEPMessage(parsing: bytes)
            } catch {
                step.events.append(.ignored(error.description))
                return step
            }
            switch message {
            case .ack where streamID == self.streamID && state == .opening:
                state = .open
                step.events.append(.opened)
            case .ack:
                step.events.append(.ignored("DATA_CHANNEL_ACK on stream \(streamID)"))
            case .open(let peerOpen):
                // The peer opened a channel of its own: acknowledged (RFC 8832 §6), not used.
                step.replies.append(Outbound(streamID: streamID, ppid: .dcep, bytes: DCEPMessage.ack.serialized))
                step.events.append(.ignored("the peer's channel \"\(peerOpen.label)\" on stream \(streamID)"))
            }
            return step
        }
        guard streamID == self.streamID, state != .idle else {
            step.events.append(.ignored("a message on stream \(streamID)"))
            return step
        }
        // A message after OPEN counts as the ACK (RFC 8832 §6: the peer may send before it).
        if state == .opening {
            state = .open
            step.events.append(.opened)
        }
        step.events.append(Event(kind: kind, bytes: bytes))
        return step
    }
}
