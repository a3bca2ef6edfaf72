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

    /// The address family code STUN writes (RFC 8489 §14.1): 0x01 IPv4, 0x02 IPv6.
    var familyCode: UInt8 { ipBytes.count == 4 ? 0x01 : 0x02 }

    package var host: String {
        if ipBytes.count == 4 { return ipBytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(ipBytes[$0]) << 8 | UInt16(ipBytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }

    package var description: String { ipBytes.count == 4 ? "\(host):\(port)" : "[\(host)]:\(port)" }
}
