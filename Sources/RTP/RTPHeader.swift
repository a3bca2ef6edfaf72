/// The fixed RTP header and what follows it before the payload (RFC 3550 §5.1): version 2 always.
package struct RTPHeader: Sendable, Hashable {
    /// The fixed part's length; each CSRC adds 4 bytes and an extension 4 plus its data.
    package static let fixedByteCount = 12

    package var marker: Bool
    /// 0 … 127: the payload type the SDP gave the codec.
    package var payloadType: UInt8
    package var sequenceNumber: UInt16
    /// The sampling instant of the payload's first sample, in the codec's clock (48 kHz for Opus).
    package var timestamp: UInt32
    package var ssrc: UInt32
    /// Contributing sources, at most 15.
    package var csrcs: [UInt32]
    package var headerExtension: RTPHeaderExtension?

    package init(
        marker: Bool = false,
        payloadType: UInt8,
        sequenceNumber: UInt16,
        timestamp: UInt32,
        ssrc: UInt32,
        csrcs: [UInt32] = [],
        headerExtension: RTPHeaderExtension? = nil
    ) {
        precondition(payloadType < 128, "an RTP payload type is 7 bits, got \(payloadType)")
        precondition(csrcs.count < 16, "an RTP header holds at most 15 CSRCs, got \(csrcs.count)")
        self.marker = marker
        self.payloadType = payloadType
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.ssrc = ssrc
        self.csrcs = csrcs
        self.headerExtension = headerExtension
    }

    /// The header's length on the wire: fixed part, CSRCs and extension.
    package var byteCount: Int {
        Self.fixedByteCount + 4 * csrcs.count + (headerExtension.map { 4 + $0.data.count } ?? 0)
    }
}
