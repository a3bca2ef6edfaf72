/// The Data Channel Establishment Protocol's two messages (RFC 8832 §5), sent on a channel's own
/// stream with PPID 50: DATA_CHANNEL_OPEN, which opens the channel, and DATA_CHANNEL_ACK.
package enum DCEPMessage: Sendable, Hashable {
    case open(DataChannelOpen)
    case ack

    package static let openType: UInt8 = 0x03
    package static let ackType: UInt8 = 0x02

    /// Reads one message; anything else is a one-line typed error.
    package init(parsing bytes: [UInt8]) throws(DCEPParseError) {
        guard let type = bytes.first else { throw .empty }
        switch type {
        case Self.ackType:
            self = .ack
        case Self.openType:
            // Type, channel type, priority (2), reliability parameter (4), label and protocol lengths (2 each).
            guard bytes.count >= 12 else { throw .truncated(bytes.count) }
            let labelCount = Int(bytes[8]) << 8 | Int(bytes[9])
            let protocolCount = Int(bytes[10]) << 8 | Int(bytes[11])
            guard bytes.count == 12 + labelCount + protocolCount else { throw .lengthMismatch(bytes.count) }
            guard let label = String(validating: bytes[12..<12 + labelCount], as: UTF8.self),
                let channelProtocol = String(validating: bytes[(12 + labelCount)...], as: UTF8.self)
            else { throw .notUTF8 }
            self = .open(
                DataChannelOpen(
                    channelType: bytes[1], priority: UInt16(bytes[2]) << 8 | UInt16(bytes[3]),
                    reliabilityParameter: bytes[4..<8].reduce(0) { $0 << 8 | UInt32($1) }, label: label,
                    channelProtocol: channelProtocol))
        default:
            throw .unknownType(type)
        }
    }

    /// The message's bytes, as RFC 8832 §5 lays them out (network byte order).
    package var serialized: [UInt8] {
        switch self {
        case .ack:
            return [Self.ackType]
        case .open(let open):
            let label = Array(open.label.utf8)
            let channelProtocol = Array(open.channelProtocol.utf8)
            var bytes: [UInt8] = [Self.openType, open.channelType]
            bytes += [UInt8(open.priority >> 8), UInt8(open.priority & 0xff)]
            bytes += (0..<4).map { UInt8(truncatingIfNeeded: open.reliabilityParameter >> (24 - 8 * $0)) }
            bytes += [UInt8(label.count >> 8), UInt8(label.count & 0xff)]
            bytes += [UInt8(channelProtocol.count >> 8), UInt8(channelProtocol.count & 0xff)]
            return bytes + label + channelProtocol
        }
    }
}

/// DATA_CHANNEL_OPEN's fields (RFC 8832 §5.1).
package struct DataChannelOpen: Sendable, Hashable {
    /// DATA_CHANNEL_RELIABLE: ordered and reliable, what RTVI and `oai-events` use.
    package static let reliable: UInt8 = 0x00

    package var channelType: UInt8
    package var priority: UInt16
    package var reliabilityParameter: UInt32
    package var label: String
    package var channelProtocol: String

    /// An ordered, reliable channel with the normal priority (RFC 8831 §6.4's 256), as browsers open.
    package init(
        label: String, channelProtocol: String = "", channelType: UInt8 = Self.reliable, priority: UInt16 = 256,
        reliabilityParameter: UInt32 = 0
    ) {
        self.channelType = channelType
        self.priority = priority
        self.reliabilityParameter = reliabilityParameter
        self.label = label
        self.channelProtocol = channelProtocol
    }

    // The memberwise order the parser uses.
    init(channelType: UInt8, priority: UInt16, reliabilityParameter: UInt32, label: String, channelProtocol: String) {
        self.init(
            label: label, channelProtocol: channelProtocol, channelType: channelType, priority: priority,
            reliabilityParameter: reliabilityParameter)
    }
}

/// Why bytes on PPID 50 are not a DCEP message.
package enum DCEPParseError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case unknownType(UInt8)
    case truncated(Int)
    case lengthMismatch(Int)
    case notUTF8

    package var description: String {
        switch self {
        case .empty: return "DCEP message is empty"
        case .unknownType(let type): return "DCEP message type \(type) is neither OPEN (3) nor ACK (2)"
        case .truncated(let count): return "DCEP OPEN is \(count) bytes, shorter than its 12-byte header"
        case .lengthMismatch(let count): return "DCEP OPEN is \(count) bytes, not its header plus label and protocol"
        case .notUTF8: return "DCEP OPEN's label or protocol is not UTF-8"
        }
    }
}

/// The payload protocol identifiers of WebRTC's data channels (RFC 8831 §8, RFC 8832 §8.1).
package enum DataChannelPPID: UInt32, Sendable {
    case dcep = 50
    case string = 51
    case binary = 53
    /// An empty message is sent as one byte with these PPIDs (RFC 8831 §6.6).
    case emptyString = 56
    case emptyBinary = 57
}
