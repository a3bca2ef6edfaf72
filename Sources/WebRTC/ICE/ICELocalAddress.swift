import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The local IPv4 address a call offers as its host candidate: the one this machine's routing
/// table uses to reach the agent's signalling host (docs/webrtc.md,
/// "Where a call's packets go"). An agent on loopback is reached from 127.0.0.1; any other from
/// the interface address the route to it leaves from. Found once a run, before its first call,
/// from the host's address (the run looks the name up, `WebRTCCallTarget`): a UDP socket is
/// connected to it and asked its own address (getsockname), which sends no packet.
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

    /// The dotted local IPv4 address that reaches `remote` (an IPv4 address).
    package static func toward(_ remote: SocketAddress) throws(LookupError) -> String {
        guard case .v4(let ipv4) = remote else { throw LookupError(description: "\(remote) is not an IPv4 address") }
        let descriptor = socket(AF_INET, datagram, 0)
        guard descriptor >= 0 else { throw LookupError(description: "cannot open a UDP socket: \(errorText())") }
        defer { close(descriptor) }
        let name = ipv4.host.isEmpty ? "\(remote)" : ipv4.host
        guard connectSocket(descriptor, to: ipv4.address) else { throw LookupError(description: "no route to \(name): \(errorText())") }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw LookupError(description: "cannot read the local address toward \(name): \(errorText())") }
        return dotted(local.sin_addr)
    }

    /// Whether this machine has a route to an IPv4 candidate, and it is one host's (not
    /// multicast, not the broadcast address). A check sent where there is no route fails with
    /// an error that closes the call's socket (SwiftNIO closes a UDP channel on any send error
    /// but EMSGSIZE and EHOSTUNREACH), so such a candidate is left out rather than checked.
    package static func hasRoute(to address: STUNAddress) -> Bool {
        guard address.ipBytes.count == 4, address.ipBytes[0] < 224 else { return false }
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = address.port.bigEndian
        withUnsafeMutableBytes(of: &remote.sin_addr) { $0.copyBytes(from: address.ipBytes) }
        let descriptor = socket(AF_INET, datagram, 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return connectSocket(descriptor, to: remote)
    }

    /// Connects a UDP socket (a route lookup; nothing is sent).
    private static func connectSocket(_ descriptor: Int32, to remote: sockaddr_in) -> Bool {
        var address = remote
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return connected == 0
    }

    private static func dotted(_ address: in_addr) -> String {
        withUnsafeBytes(of: address.s_addr) { $0.map(String.init).joined(separator: ".") }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
