import Dispatch
import NIOCore
import NIOPosix
import Synchronization
import WSClient

/// The signalling host's address, looked up once at a WebRTC run's start, before its first
/// call, for the local address every call offers (`ICELocalAddress`; docs/webrtc.md, "Where a
/// call's packets go"). The lookup is `TimedResolver.lookUp`'s `getaddrinfo`, the one a
/// WebSocket connect makes, on a pool thread: a run waits for it at most `timeoutMs`, so a DNS
/// server that never answers is a one-line input error, not a run that hangs before it starts.
/// `getaddrinfo` cannot be interrupted: a lookup given up on runs to its end unheard.
enum SignallingHostLookup {
    /// As long as a scenario's connect step waits by default (`ScenarioStepParser`): a name
    /// that takes longer would fail every call's connect anyway.
    static let timeoutMs = 10_000

    typealias LookUp = @Sendable (_ host: String, _ port: Int) throws -> (v6: [SocketAddress], v4: [SocketAddress])

    /// The first IPv4 address `host` resolves to, else its first IPv6 one: a call's packets go
    /// over the family its signalling does, IPv4 where a name has both (as most agents listen).
    static func address(
        host: String, port: Int, dialect: String, timeoutMs: Int = timeoutMs, lookUp: @escaping LookUp = TimedResolver.lookUp
    ) throws(InputError) -> SocketAddress {
        let answer = Answer()
        NIOThreadPool.singleton.submit { _ in
            answer.result.withLock { $0 = Result { try lookUp(host, port) } }
            answer.done.signal()
        }
        guard answer.done.wait(timeout: .now() + .milliseconds(timeoutMs)) == .success, let result = answer.result.withLock({ $0 }) else {
            throw InputError("\(dialect): cannot resolve \(host): no answer within \(timeoutMs) ms")
        }
        switch result {
        case .failure(let error as TimedResolver.LookupError):
            throw InputError("\(dialect): cannot resolve \(host): \(error.reason)")
        case .failure(let error):
            throw InputError("\(dialect): cannot resolve \(host): \(error)")
        case .success(let addresses):
            guard let address = addresses.v4.first ?? addresses.v6.first else {
                throw InputError("\(dialect): cannot resolve \(host): no address")
            }
            return address
        }
    }

    /// What the pool thread hands back.
    private final class Answer: Sendable {
        let result = Mutex<Result<(v6: [SocketAddress], v4: [SocketAddress]), any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
    }
}
