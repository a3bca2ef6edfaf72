import NIOCore
import NIOPosix
import WSCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A name lookup for one connection that notes when it finished, for `dns_ms`.
///
/// Does what NIO's own resolver does (which is internal): one `getaddrinfo` (AF_UNSPEC,
/// SOCK_STREAM) off the event loop, here on `NIOThreadPool.singleton`, its answers split into
/// IPv6 and IPv4 for Happy Eyeballs, both completed in the same loop tick with IPv6 first (so
/// Happy Eyeballs does not wait its resolution delay for a late AAAA answer). The lookup
/// starts with the AAAA query, which Happy Eyeballs makes first. Time spent queued for a pool
/// thread counts as lookup time: the caller waited for it all the same.
package final class TimedResolver: Resolver, Sendable {
    private let loop: any EventLoop
    private let v4: EventLoopPromise<[SocketAddress]>
    private let v6: EventLoopPromise<[SocketAddress]>
    private let finished: NIOLoopBoundBox<MonotonicInstant?>

    package init(loop: any EventLoop) {
        self.loop = loop
        v4 = loop.makePromise()
        v6 = loop.makePromise()
        finished = .makeEmptyBox(valueType: MonotonicInstant.self, eventLoop: loop)
    }

    /// When `getaddrinfo` returned (on the pool thread); nil until then. Read it on the loop.
    package var resolvedAt: MonotonicInstant? { finished.value }

    package func initiateAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
        v4.futureResult
    }

    package func initiateAAAAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
        let (v4, v6, finished) = (self.v4, self.v6, self.finished)
        NIOThreadPool.singleton.runIfActive(eventLoop: loop) {
            let answer = Result { try Self.lookUp(host: host, port: port) }
            return (answer, MonotonicInstant.now())
        }.whenComplete { result in
            switch result {
            case .success((let answer, let at)):
                finished.value = at
                switch answer {
                case .success(let addresses):
                    v6.succeed(addresses.v6)
                    v4.succeed(addresses.v4)
                case .failure(let error):
                    v6.fail(error)
                    v4.fail(error)
                }
            case .failure(let error):
                v6.fail(error)
                v4.fail(error)
            }
        }
        return v6.futureResult
    }

    /// `getaddrinfo` cannot be interrupted: an abandoned lookup runs to its end unheard.
    package func cancelQueries() {}

    /// Why a lookup failed: `getaddrinfo`'s own words.
    package struct LookupError: Error, CustomStringConvertible {
        package var host: String
        package var reason: String
        package var description: String { "\(host): \(reason)" }
    }

    /// One blocking `getaddrinfo`: the host's addresses in the order it gave them (RFC 6724).
    package static func lookUp(host: String, port: Int) throws -> (v6: [SocketAddress], v4: [SocketAddress]) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            throw LookupError(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var v6: [SocketAddress] = []
        var v4: [SocketAddress] = []
        var entry = list
        while let info = entry {
            if let address = info.pointee.ai_addr {
                switch info.pointee.ai_family {
                case AF_INET6:
                    v6.append(SocketAddress(UnsafeRawPointer(address).load(as: sockaddr_in6.self), host: host))
                case AF_INET:
                    v4.append(SocketAddress(UnsafeRawPointer(address).load(as: sockaddr_in.self), host: host))
                default:
                    break
                }
            }
            entry = info.pointee.ai_next
        }
        return (v6, v4)
    }
}
