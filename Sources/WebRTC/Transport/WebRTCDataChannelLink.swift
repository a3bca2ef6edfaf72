import NIOCore

/// The data channel's I/O inside `WebRTCChannelHandler`: the SCTP association over the DTLS
/// association and the `DataChannel` value on top of it. Started once DTLS is done; reports the
/// channel's open and the peer's messages. Used on the channel's event loop.
final class WebRTCDataChannelLink {
    private var association: SCTPAssociation?
    private var channel: any DataChannelEnd
    private let remotePort: UInt16
    private let writeApplicationData: ([UInt8]) -> Void
    private let onEvent: (WebRTCTransportEvent) -> Void
    private let onFailure: (WebRTCTransportFailure) -> Void
    private let onHangUp: (WebRTCHangUp) -> Void
    private var startNanoseconds: UInt64 = 0
    /// The peer's messages vload did not use (`DataChannel.Event.ignored`).
    private(set) var ignoredMessages = 0

    init(
        channel: any DataChannelEnd, remotePort: UInt16, writeApplicationData: @escaping ([UInt8]) -> Void,
        onEvent: @escaping (WebRTCTransportEvent) -> Void, onFailure: @escaping (WebRTCTransportFailure) -> Void,
        onHangUp: @escaping (WebRTCHangUp) -> Void
    ) {
        self.channel = channel
        self.remotePort = remotePort
        self.writeApplicationData = writeApplicationData
        self.onEvent = onEvent
        self.onFailure = onFailure
        self.onHangUp = onHangUp
    }

    /// Opens the association (its INIT goes out) at `nowNanoseconds`, where the open time starts.
    func start(eventLoop: any EventLoop, nowNanoseconds: UInt64) {
        startNanoseconds = nowNanoseconds
        do {
            association = try SCTPAssociation(
                eventLoop: eventLoop, remotePort: remotePort, onPacket: { [unowned self] in self.writeApplicationData($0) },
                onEvent: { [unowned self] in self.handle($0) })
        } catch {
            onFailure(.sctp(error.description))
        }
    }

    /// An SCTP packet that came as DTLS application data.
    func receive(_ packet: [UInt8]) { association?.receive(packet) }

    /// Sends a text message; false before the OPEN went out or once closed.
    func send(text: String) -> Bool {
        guard let outbound = channel.text(text) else { return false }
        return send(outbound)
    }

    /// Closes the association; its ABORT goes out through `writeApplicationData` first.
    func close() {
        association?.close()
        association = nil
    }

    private func handle(_ event: SCTPEvent) {
        switch event {
        case .established:
            for outbound in channel.opening() { _ = send(outbound) }
        case .message(let streamID, let ppid, let bytes, let arrivalNanoseconds):
            let step = channel.receive(streamID: streamID, ppid: ppid, bytes: bytes)
            for reply in step.replies { _ = send(reply) }
            for event in step.events {
                switch event {
                case .opened:
                    onEvent(.dataChannelOpen(openMs: Double(arrivalNanoseconds - startNanoseconds) / 1_000_000))
                case .text(let text): onEvent(.dataChannelText(text, arrivalNanoseconds: arrivalNanoseconds))
                case .binary(let bytes): onEvent(.dataChannelBinary(bytes, arrivalNanoseconds: arrivalNanoseconds))
                case .ignored: ignoredMessages += 1
                }
            }
        case .endedByPeer(let hangUp):
            close()
            onHangUp(hangUp)
        case .closed(let reason):
            close()
            onFailure(.sctp(reason))
        }
    }

    private func send(_ outbound: DataChannel.Outbound) -> Bool {
        guard let association else { return false }
        do {
            try association.send(outbound.bytes, streamID: outbound.streamID, ppid: outbound.ppid.rawValue)
            return true
        } catch {
            onFailure(.sctp(error.description))
            return false
        }
    }
}
