/// An ICE candidate as an SDP `a=candidate` line carries it (RFC 8839 §5.1). vload offers one
/// host candidate on loopback; the answer's candidates are read to find where to send checks.
package struct ICECandidate: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        case host, srflx, prflx, relay
    }

    package var foundation: String
    package var component: Int
    package var transport: String
    package var priority: UInt32
    package var host: String
    package var port: UInt16
    package var kind: Kind

    /// SDP's address type for `host` (RFC 8866 §5.7): `IP6` for an IPv6 address, else `IP4`.
    package var addressType: String { host.contains(":") ? "IP6" : "IP4" }

    package init(foundation: String, component: Int, transport: String, priority: UInt32, host: String, port: UInt16, kind: Kind) {
        self.foundation = foundation
        self.component = component
        self.transport = transport
        self.priority = priority
        self.host = host
        self.port = port
        self.kind = kind
    }

    /// The priority RFC 8445 §5.1.2.1 gives a candidate: 2^24 × type preference + 2^8 × local
    /// preference + (256 − component). Type preferences are the RFC's recommended ones.
    package static func priority(kind: Kind, localPreference: UInt32 = 65_535, component: Int = 1) -> UInt32 {
        let typePreference: UInt32
        switch kind {
        case .host: typePreference = 126
        case .prflx: typePreference = 110
        case .srflx: typePreference = 100
        case .relay: typePreference = 0
        }
        return typePreference << 24 | localPreference << 8 | UInt32(256 - component)
    }

    /// The attribute's value, after `candidate:`.
    package var attributeValue: String {
        "\(foundation) \(component) \(transport) \(priority) \(host) \(port) typ \(kind.rawValue)"
    }

    /// Reads an attribute value (after `candidate:`); extension fields after the type are ignored.
    package init?(attributeValue: some StringProtocol) {
        let fields = attributeValue.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 8, fields[6] == "typ", let component = Int(fields[1]), let priority = UInt32(fields[3]),
            let port = UInt16(fields[5]), let kind = Kind(rawValue: String(fields[7]))
        else { return nil }
        self.init(
            foundation: String(fields[0]), component: component, transport: String(fields[2]).lowercased(), priority: priority,
            host: String(fields[4]), port: port, kind: kind)
    }
}
