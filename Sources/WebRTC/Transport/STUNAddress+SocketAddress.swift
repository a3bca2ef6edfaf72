import NIOCore

extension STUNAddress {
    /// A datagram's source or destination as ICE names it: its IP address and port; nil for an
    /// address without them (a Unix domain socket's).
    init?(_ address: SocketAddress) {
        guard let port = address.port, let ip = address.ipAddress else { return nil }
        self.init(ip: ip, port: UInt16(port))
    }
}
