/// One STUN attribute (RFC 8489 §14, RFC 8445 §16.1) as a value. The integrity and fingerprint
/// attributes are not here: `STUNMessage.serialized` writes them and `STUNMessage(parsing:)`
/// checks them.
package enum STUNAttribute: Sendable, Hashable {
    /// USERNAME: for ICE, "<receiver's ufrag>:<sender's ufrag>" (RFC 8445 §7.2.2).
    case username(String)
    /// XOR-MAPPED-ADDRESS: where the request came from, as the responder saw it.
    case xorMappedAddress(STUNAddress)
    /// ERROR-CODE: a class and number (e.g. 487 Role Conflict) and a reason.
    case errorCode(code: Int, reason: String)
    /// PRIORITY: the priority a peer-reflexive candidate learnt from this check would have.
    case priority(UInt32)
    /// USE-CANDIDATE: the controlling agent nominates this pair.
    case useCandidate
    /// ICE-CONTROLLED and ICE-CONTROLLING with the agent's tie-breaker.
    case iceControlled(tieBreaker: UInt64)
    case iceControlling(tieBreaker: UInt64)
    /// SOFTWARE: the agent's name.
    case software(String)
    /// Any other attribute, kept as its bytes.
    case other(type: UInt16, value: [UInt8])

    package enum Code: UInt16 {
        case username = 0x0006
        case messageIntegrity = 0x0008
        case errorCode = 0x0009
        case xorMappedAddress = 0x0020
        case priority = 0x0024
        case useCandidate = 0x0025
        case software = 0x8022
        case fingerprint = 0x8028
        case iceControlled = 0x8029
        case iceControlling = 0x802A
    }

    var code: UInt16 {
        switch self {
        case .username: return Code.username.rawValue
        case .xorMappedAddress: return Code.xorMappedAddress.rawValue
        case .errorCode: return Code.errorCode.rawValue
        case .priority: return Code.priority.rawValue
        case .useCandidate: return Code.useCandidate.rawValue
        case .iceControlled: return Code.iceControlled.rawValue
        case .iceControlling: return Code.iceControlling.rawValue
        case .software: return Code.software.rawValue
        case .other(let type, _): return type
        }
    }

    /// The value's bytes, before padding; `transactionID` masks the XORed address.
    func value(transactionID: STUNTransactionID) -> [UInt8] {
        switch self {
        case .username(let text), .software(let text):
            return Array(text.utf8)
        case .xorMappedAddress(let address):
            return [0, address.familyCode] + STUNBytes.bigEndian(address.port ^ UInt16(STUNMessage.magicCookie >> 16))
                + zip(address.ipBytes, Self.addressMask(transactionID: transactionID)).map { $0 ^ $1 }
        case .errorCode(let code, let reason):
            return [0, 0, UInt8(code / 100), UInt8(code % 100)] + Array(reason.utf8)
        case .priority(let priority):
            return STUNBytes.bigEndian(priority)
        case .useCandidate:
            return []
        case .iceControlled(let tieBreaker), .iceControlling(let tieBreaker):
            return STUNBytes.bigEndian(tieBreaker)
        case .other(_, let value):
            return value
        }
    }

    /// The attribute a type and value hold; a known attribute whose value is malformed is an
    /// error. Text that is not UTF-8 (RFC 8489 §14.3 and §14.14 ask for UTF-8) is kept as bytes,
    /// so a message always writes back as it was read.
    init(code: UInt16, value: [UInt8], transactionID: STUNTransactionID) throws(STUNParseError) {
        switch Code(rawValue: code) {
        case .username:
            self = String(validating: value, as: UTF8.self).map { .username($0) } ?? .other(type: code, value: value)
        case .software:
            self = String(validating: value, as: UTF8.self).map { .software($0) } ?? .other(type: code, value: value)
        case .xorMappedAddress:
            guard value.count == 8 && value[1] == 0x01 || value.count == 20 && value[1] == 0x02 else {
                throw .malformedAttribute(type: code)
            }
            let port = STUNBytes.uint16(value, at: 2) ^ UInt16(STUNMessage.magicCookie >> 16)
            let ip = zip(value[4...], Self.addressMask(transactionID: transactionID)).map { $0 ^ $1 }
            self = .xorMappedAddress(STUNAddress(ipBytes: ip, port: port))
        case .errorCode:
            guard value.count >= 4, (3...6).contains(value[2] & 0x07), value[3] < 100 else {
                throw .malformedAttribute(type: code)
            }
            guard let reason = String(validating: value[4...], as: UTF8.self) else { throw .malformedAttribute(type: code) }
            self = .errorCode(code: Int(value[2] & 0x07) * 100 + Int(value[3]), reason: reason)
        case .priority:
            guard value.count == 4 else { throw .malformedAttribute(type: code) }
            self = .priority(STUNBytes.uint32(value, at: 0))
        case .useCandidate:
            guard value.isEmpty else { throw .malformedAttribute(type: code) }
            self = .useCandidate
        case .iceControlled, .iceControlling:
            guard value.count == 8 else { throw .malformedAttribute(type: code) }
            let tieBreaker = UInt64(STUNBytes.uint32(value, at: 0)) << 32 | UInt64(STUNBytes.uint32(value, at: 4))
            self = code == Code.iceControlled.rawValue ? .iceControlled(tieBreaker: tieBreaker) : .iceControlling(tieBreaker: tieBreaker)
        case .messageIntegrity, .fingerprint, nil:
            self = .other(type: code, value: value)
        }
    }

    /// The magic cookie then the transaction ID: what XOR-MAPPED-ADDRESS masks with (RFC 8489 §14.2).
    private static func addressMask(transactionID: STUNTransactionID) -> [UInt8] {
        STUNBytes.bigEndian(STUNMessage.magicCookie) + transactionID.bytes
    }
}
