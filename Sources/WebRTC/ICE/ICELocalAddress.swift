import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The local address a call offers as its host candidate: the one this machine's routing table
/// uses to reach the agent's signalling host (docs/webrtc.md, "Where a call's packets go"), of
/// the same family (IPv4 or IPv6). An agent on loopback is reached from 127.0.0.1 or ::1; any
/// other from the interface address the route to it leaves from. Found once a run, before its
/// first call, from the host's address (the run looks the name up, `WebRTCCallTarget`): a UDP
/// socket is connected to it and asked its own address (getsockname), which sends no packet.
package enum ICELocalAddress {
    /// A failure to find the address, in one line.
    package struct LookupError: Error, CustomStringConvertible {
        package let description: String
    }

    #if canImport(Glibc)
    private static let datagram = Int32(SOCK_DGRAM.rawValue)
    #else
    private static let datagram = SOCK_DGRAM
    #endif

    /// The local address, in its text form, that reaches `remote` (an IPv4 or IPv6 address).
    package static func toward(_ remote: SocketAddress) throws(LookupError) -> String {
        let name = remote.ipAddress ?? "\(remote)"
        let local: STUNAddress
        switch remote {
        case .v4(let ipv4): local = try localAddress(family: AF_INET, toward: ipv4.address, name: name)
        case .v6(let ipv6): local = try localAddress(family: AF_INET6, toward: ipv6.address, name: name)
        default: throw LookupError(description: "\(remote) is not an IP address")
        }
        return local.host
    }

    /// Whether this machine has a route to a candidate, and it is one host's: not multicast, not
    /// the IPv4 broadcast address, not an IPv6 link-local address (which needs an interface to
    /// name, as aioice leaves them out). A check sent where there is no route fails with an error
    /// that closes the call's socket (SwiftNIO closes a UDP channel on any send error but EMSGSIZE
    /// and EHOSTUNREACH), so such a candidate is left out rather than checked.
    package static func hasRoute(to address: STUNAddress) -> Bool {
        if address.isIPv6 {
            guard address.ipBytes[0] != 0xFF, !address.isIPv6LinkLocal else { return false }
            var remote = sockaddr_in6()
            remote.sin6_family = sa_family_t(AF_INET6)
            remote.sin6_port = address.port.bigEndian
            withUnsafeMutableBytes(of: &remote.sin6_addr) { $0.copyBytes(from: address.ipBytes) }
            return routes(family: AF_INET6, toward: remote, name: address.host)
        }
        guard address.ipBytes[0] < 224 else { return false }
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = address.port.bigEndian
        withUnsafeMutableBytes(of: &remote.sin_addr) { $0.copyBytes(from: address.ipBytes) }
        return routes(family: AF_INET, toward: remote, name: address.host)
    }

    /// Whether a UDP socket connects to `remote`: a route lookup alone, no local address asked.
    private static func routes<Address>(family: Int32, toward remote: Address, name: String) -> Bool {
        guard let descriptor = try? connectedSocket(family: family, toward: remote, name: name) else { return false }
        close(descriptor)
        return true
    }

    /// A UDP socket of `family` connected to `remote` (a `sockaddr_in` or `sockaddr_in6`): the
    /// kernel looks the route up, nothing is sent. The caller closes it.
    private static func connectedSocket<Address>(family: Int32, toward remote: Address, name: String) throws(LookupError) -> Int32 {
        let descriptor = socket(family, datagram, 0)
        guard descriptor >= 0 else { throw LookupError(description: "cannot open a UDP socket: \(errorText())") }
        var address = remote
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
        guard connected == 0 else {
            let reason = errorText()
            close(descriptor)
            throw LookupError(description: "no route to \(name): \(reason)")
        }
        return descriptor
    }

    /// The local address a UDP socket connected to `remote` was given (getsockname).
    private static func localAddress<Address>(family: Int32, toward remote: Address, name: String) throws(LookupError) -> STUNAddress {
        let descriptor = try connectedSocket(family: family, toward: remote, name: name)
        defer { close(descriptor) }
        var local = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw LookupError(description: "cannot read the local address toward \(name): \(errorText())") }
        if family == AF_INET6 {
            let ipv6 = withUnsafeBytes(of: &local) { $0.load(as: sockaddr_in6.self) }
            return STUNAddress(ipBytes: withUnsafeBytes(of: ipv6.sin6_addr) { Array($0) }, port: UInt16(bigEndian: ipv6.sin6_port))
        }
        let ipv4 = withUnsafeBytes(of: &local) { $0.load(as: sockaddr_in.self) }
        return STUNAddress(ipBytes: withUnsafeBytes(of: ipv4.sin_addr) { Array($0) }, port: UInt16(bigEndian: ipv4.sin_port))
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
