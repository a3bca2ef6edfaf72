#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A transport address as STUN carries it: IPv4 or IPv6 bytes and a port.
package struct STUNAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6), in network order.
    package let ipBytes: [UInt8]
    package let port: UInt16

    package init(ipBytes: [UInt8], port: UInt16) {
        precondition(ipBytes.count == 4 || ipBytes.count == 16, "an IP address is 4 or 16 bytes, got \(ipBytes.count)")
        self.ipBytes = ipBytes
        self.port = port
    }

    /// An IPv4 address from its dotted form, or nil when it is not one.
    package init?(ipv4 text: some StringProtocol, port: UInt16) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard let byte = UInt8(part) else { return nil }
            bytes.append(byte)
        }
        self.init(ipBytes: bytes, port: port)
    }

    /// An IPv4 address in its dotted form or an IPv6 address in its text form (RFC 5952, or any
    /// form `inet_pton` reads; no brackets, no zone), or nil when it is neither.
    package init?(ip text: some StringProtocol, port: UInt16) {
        if let address = STUNAddress(ipv4: text, port: port) {
            self = address
            return
        }
        guard text.contains(":") else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        let parsed = String(text).withCString { name in bytes.withUnsafeMutableBytes { inet_pton(AF_INET6, name, $0.baseAddress) } }
        guard parsed == 1 else { return nil }
        self.init(ipBytes: bytes, port: port)
    }

    /// Whether this is an IPv6 address.
    package var isIPv6: Bool { ipBytes.count == 16 }

    /// Whether this is an IPv6 link-local address (fe80::/10), which needs its interface named.
    package var isIPv6LinkLocal: Bool { isIPv6 && ipBytes[0] == 0xFE && ipBytes[1] & 0xC0 == 0x80 }

    /// The address family code STUN writes (RFC 8489 §14.1): 0x01 IPv4, 0x02 IPv6.
    var familyCode: UInt8 { ipBytes.count == 4 ? 0x01 : 0x02 }

    package var host: String {
        if ipBytes.count == 4 { return ipBytes.map(String.init).joined(separator: ".") }
        // RFC 5952's shortest form, as the kernel and NIO write it (16 bytes always convert).
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        _ = ipBytes.withUnsafeBytes { inet_ntop(AF_INET6, $0.baseAddress, &text, socklen_t(text.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package var description: String { ipBytes.count == 4 ? "\(host):\(port)" : "[\(host)]:\(port)" }
}
