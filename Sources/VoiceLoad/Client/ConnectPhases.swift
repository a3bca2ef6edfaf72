import WSClient
import WSCore

/// The phases of one session's connect (the k6 phases): name lookup, TCP, TLS and the
/// WebSocket upgrade, which add up to its `connect_ms` (docs/tls.md).
///
/// Each phase runs from the end of the one before it to its own stamp, so the four tile the
/// interval from the connect's start to the 101 with no gap and no overlap.
package struct ConnectPhases: Sendable, Hashable {
    /// Connect start → the name lookup's end; 0 for an IP-literal host (no lookup).
    package var dnsUs: Int64
    /// Lookup's end (or the start) → TCP connected.
    package var tcpUs: Int64
    /// TCP connected → TLS handshake completed; nil for ws://.
    package var tlsUs: Int64?
    /// TLS completed (TCP connected for ws://) → the server's 101 received.
    package var upgradeUs: Int64

    package init(dnsUs: Int64, tcpUs: Int64, tlsUs: Int64?, upgradeUs: Int64) {
        self.dnsUs = dnsUs
        self.tcpUs = tcpUs
        self.tlsUs = tlsUs
        self.upgradeUs = upgradeUs
    }

    /// The phases of a connect that started at `startedAt` and passed `stamps`. A stamp earlier
    /// than the one before it (not seen on a monotonic clock) counts as that one, so no phase
    /// is negative. Each stamp is taken in whole µs from the start and each phase is the
    /// difference of two of them, so the phases add up to `openedAt − startedAt` exactly.
    package init(stamps: ConnectStamps, startedAt: MonotonicInstant) {
        let resolvedUs = max(0, (stamps.resolvedAt ?? startedAt).microseconds(since: startedAt))
        let connectedUs = max(resolvedUs, stamps.tcpConnectedAt.microseconds(since: startedAt))
        let securedUs = stamps.tlsCompletedAt.map { max(connectedUs, $0.microseconds(since: startedAt)) }
        let openedUs = max(securedUs ?? connectedUs, stamps.openedAt.microseconds(since: startedAt))
        dnsUs = resolvedUs
        tcpUs = connectedUs - resolvedUs
        tlsUs = securedUs.map { $0 - connectedUs }
        upgradeUs = openedUs - (securedUs ?? connectedUs)
    }

    /// The sum of the phases: the session's `connect_ms`.
    package var totalUs: Int64 { dnsUs + tcpUs + (tlsUs ?? 0) + upgradeUs }
}
