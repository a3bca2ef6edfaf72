import NIOCore
import RTP

/// How both transport handlers (the caller's `WebRTCChannelHandler`, the answerer's
/// `WebRTCAnswerHandler`) take in the peer's RTP and RTCP: each datagram is stamped as it is read,
/// before anything else is done with it, and handled (SRTP, the counts, the `rtp` event) in a task
/// on the loop, that is once every datagram the loop's turn read has been stamped, in arrival
/// order. Handled as it was read, a packet's stamp would wait for the handling of every packet
/// read before it in the same turn; with a run's callers in step, the last one read would arrive
/// late by all the others' decryption and decoding (docs/webrtc.md, "When a packet arrived").
protocol WebRTCMediaReceiver: AnyObject, SendableMetatype {
    /// Set once the peer's media may be read: ended calls read nothing.
    var finished: Bool { get }
    /// The SRTP sessions, once DTLS has given their keys.
    var media: WebRTCMedia? { get }
    /// The selected peer: media from anywhere else is not the call's.
    var remote: SocketAddress? { get }
    var counters: WebRTCTransportCounters { get set }
    var onEvent: (WebRTCTransportEvent) -> Void { get }
}

extension WebRTCMediaReceiver {
    /// Stamps an RTP or RTCP datagram read from `source` now, and handles it after the loop's
    /// reads of this turn.
    func readMedia(_ bytes: [UInt8], from source: SocketAddress, on eventLoop: any EventLoop) {
        let arrivalNanoseconds = NIODeadline.now().uptimeNanoseconds
        let loopBound = NIOLoopBound(self, eventLoop: eventLoop)
        eventLoop.execute {
            loopBound.value.receiveMedia(bytes, from: source, arrivalNanoseconds: arrivalNanoseconds)
        }
    }

    private func receiveMedia(_ bytes: [UInt8], from source: SocketAddress, arrivalNanoseconds: UInt64) {
        guard !finished else { return }
        guard let media, source == remote else { return counters.otherReceived += 1 }
        guard let packet = media.receive(bytes, counters: &counters) else { return }
        onEvent(.rtp(packet, arrivalNanoseconds: arrivalNanoseconds))
    }
}
