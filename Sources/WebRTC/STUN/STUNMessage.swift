/// One STUN message (RFC 8489 §5–6) as a value: ICE's Binding requests, responses and errors.
/// `serialized` appends MESSAGE-INTEGRITY (HMAC-SHA1 keyed with the ICE password, §14.5) and
/// FINGERPRINT (CRC-32, §14.7); `init(parsing:integrityKey:)` checks both.
package struct STUNMessage: Sendable, Hashable {
    package static let magicCookie: UInt32 = 0x2112_A442
    package static let headerByteCount = 20
    private static let fingerprintMask: UInt32 = 0x5354_554E
    private static let integrityAttributeBytes = 4 + HMACSHA1.byteCount
    private static let fingerprintAttributeBytes = 8

    package var type: STUNMessageType
    package var transactionID: STUNTransactionID
    /// In the order written or read, without MESSAGE-INTEGRITY and FINGERPRINT.
    package var attributes: [STUNAttribute]
    /// Whether the parsed message carried MESSAGE-INTEGRITY (checked when a key was given).
    package private(set) var hadIntegrity = false
    /// Whether the parsed message carried a FINGERPRINT (always checked).
    package private(set) var hadFingerprint = false

    package init(type: STUNMessageType, transactionID: STUNTransactionID, attributes: [STUNAttribute]) {
        self.type = type
        self.transactionID = transactionID
        self.attributes = attributes
    }

    /// Whether a datagram is STUN rather than DTLS or RTP (RFC 7983 §7: first byte 0…3).
    package static func isSTUN(firstByte: UInt8) -> Bool { firstByte < 4 }

    package func attribute<T>(_ extract: (STUNAttribute) -> T?) -> T? {
        attributes.lazy.compactMap(extract).first
    }

    /// The message as sent, with MESSAGE-INTEGRITY when `integrityKey` is given and a FINGERPRINT
    /// when `fingerprint` is true.
    package func serialized(integrityKey: [UInt8]?, fingerprint: Bool) -> [UInt8] {
        var body: [UInt8] = []
        for attribute in attributes {
            let value = attribute.value(transactionID: transactionID)
            body += STUNBytes.bigEndian(attribute.code) + STUNBytes.bigEndian(UInt16(value.count)) + value
            body += [UInt8](repeating: 0, count: STUNBytes.paddedLength(value.count) - value.count)
        }
        if let integrityKey {
            let header = self.header(bodyByteCount: body.count + Self.integrityAttributeBytes)
            let code = HMACSHA1.authenticationCode(key: integrityKey, message: header + body)
            body += STUNBytes.bigEndian(STUNAttribute.Code.messageIntegrity.rawValue) + STUNBytes.bigEndian(UInt16(code.count)) + code
        }
        guard fingerprint else { return header(bodyByteCount: body.count) + body }
        let bytes = header(bodyByteCount: body.count + Self.fingerprintAttributeBytes) + body
        let crc = CRC32.checksum(bytes) ^ Self.fingerprintMask
        return bytes + STUNBytes.bigEndian(STUNAttribute.Code.fingerprint.rawValue) + STUNBytes.bigEndian(UInt16(4))
            + STUNBytes.bigEndian(crc)
    }

    private func header(bodyByteCount: Int) -> [UInt8] {
        STUNBytes.bigEndian(type.rawValue) + STUNBytes.bigEndian(UInt16(bodyByteCount)) + STUNBytes.bigEndian(Self.magicCookie)
            + transactionID.bytes
    }

    /// Reads a message. A FINGERPRINT must match; with `integrityKey`, MESSAGE-INTEGRITY must be
    /// there and match. Attributes after MESSAGE-INTEGRITY other than FINGERPRINT are ignored (§14.5).
    package init(parsing bytes: [UInt8], integrityKey: [UInt8]?) throws(STUNParseError) {
        guard bytes.count >= Self.headerByteCount else { throw .tooShort(byteCount: bytes.count) }
        let rawType = STUNBytes.uint16(bytes, at: 0)
        let length = Int(STUNBytes.uint16(bytes, at: 2))
        guard rawType & 0xC000 == 0, STUNBytes.uint32(bytes, at: 4) == Self.magicCookie, length % 4 == 0,
            Self.headerByteCount + length == bytes.count
        else { throw .notSTUN }
        guard let type = STUNMessageType(rawValue: rawType) else { throw .unknownMessageType(rawType) }
        let transactionID = STUNTransactionID(bytes: Array(bytes[8..<20]))
        self.init(type: type, transactionID: transactionID, attributes: [])
        var offset = Self.headerByteCount
        var integrityChecked = false
        while offset < bytes.count {
            guard offset + 4 <= bytes.count else { throw .truncatedAttribute(type: 0) }
            let code = STUNBytes.uint16(bytes, at: offset)
            let valueCount = Int(STUNBytes.uint16(bytes, at: offset + 2))
            let valueStart = offset + 4
            guard valueStart + valueCount <= bytes.count else { throw .truncatedAttribute(type: code) }
            let value = Array(bytes[valueStart..<valueStart + valueCount])
            switch STUNAttribute.Code(rawValue: code) {
            case .fingerprint:
                guard valueCount == 4, valueStart + 4 == bytes.count else { throw .malformedAttribute(type: code) }
                guard CRC32.checksum(bytes[..<offset]) ^ Self.fingerprintMask == STUNBytes.uint32(value, at: 0) else {
                    throw .fingerprintMismatch
                }
                hadFingerprint = true
            case .messageIntegrity:
                guard valueCount == HMACSHA1.byteCount else { throw .malformedAttribute(type: code) }
                if !hadIntegrity, let integrityKey {
                    var signed = Array(bytes[..<offset])
                    let signedLength = STUNBytes.bigEndian(UInt16(offset + Self.integrityAttributeBytes - Self.headerByteCount))
                    signed[2] = signedLength[0]
                    signed[3] = signedLength[1]
                    guard HMACSHA1.authenticationCode(key: integrityKey, message: signed) == value else { throw .integrityMismatch }
                    integrityChecked = true
                }
                hadIntegrity = true
            default:
                if !hadIntegrity {
                    attributes.append(try STUNAttribute(code: code, value: value, transactionID: transactionID))
                }
            }
            offset = valueStart + STUNBytes.paddedLength(valueCount)
        }
        guard offset == bytes.count else { throw .truncatedAttribute(type: 0) }
        if integrityKey != nil && !integrityChecked { throw .integrityMismatch }
    }
}
