/// An RTP header extension (RFC 3550 §5.3.1): a 16-bit profile (0xBEDE for RFC 8285's one-byte
/// elements) and its data, a whole number of 32-bit words. Kept as bytes: no element is read yet.
package struct RTPHeaderExtension: Sendable, Hashable {
    package var profile: UInt16
    /// The extension's data; its length must be a multiple of 4 to be written.
    package var data: [UInt8]

    package init(profile: UInt16, data: [UInt8]) {
        precondition(data.count % 4 == 0 && data.count / 4 <= Int(UInt16.max), "extension data must be whole 32-bit words")
        self.profile = profile
        self.data = data
    }
}
