/// A STUN message's method and class (RFC 8489 §5): ICE uses only the Binding method.
package enum STUNMessageType: UInt16, Sendable, Hashable, CaseIterable {
    case bindingRequest = 0x0001
    case bindingIndication = 0x0011
    case bindingSuccess = 0x0101
    case bindingError = 0x0111
}

/// The 96-bit transaction ID that pairs a response with its request (RFC 8489 §5).
package struct STUNTransactionID: Sendable, Hashable, CustomStringConvertible {
    package static let byteCount = 12
    package let bytes: [UInt8]

    package init(bytes: [UInt8]) {
        precondition(bytes.count == Self.byteCount, "a STUN transaction ID is 12 bytes, got \(bytes.count)")
        self.bytes = bytes
    }

    /// A random ID (RFC 8489 §5 asks for one uniformly random) drawn from `generator`.
    package init(generator: inout some RandomNumberGenerator) {
        self.bytes = (0..<Self.byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    package var description: String { bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined() }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
