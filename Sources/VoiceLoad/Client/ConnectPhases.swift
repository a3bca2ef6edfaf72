import WSClient
import WSCore

/// The phases of one session's connect (the k6 phases): name lookup, TCP, TLS and the
/// WebSocket upgrade, which add up to its `connect_ms` (docs/tls.md).
///
/// Each phase runs from the end of the one before it to its own stamp, so the four tile the
/// interval from the connect's start to the 101 with no gap and no overlap.
package struct ConnectPhases: Sendable, Hashable {
    /// Connect start → the name lookup's end; 0 for an IP-literal host (no lookup).
    package var dnsMs: Double
    /// Lookup's end (or the start) → TCP connected.
    package var tcpMs: Double
    /// TCP connected → TLS handshake completed; nil for ws://.
    package var tlsMs: Double?
    /// TLS completed (TCP connected for ws://) → the server's 101 received.
    package var upgradeMs: Double

    package init(dnsMs: Double, tcpMs: Double, tlsMs: Double?, upgradeMs: Double) {
        self.dnsMs = dnsMs
        self.tcpMs = tcpMs
        self.tlsMs = tlsMs
        self.upgradeMs = upgradeMs
    }

    /// The phases of a connect that started at `startedAt` and passed `stamps`. A stamp earlier
    /// than the one before it (not seen on a monotonic clock) counts as that one, so no phase
    /// is negative and the phases always add up to `openedAt − startedAt`.
    package init(stamps: ConnectStamps, startedAt: MonotonicInstant) {
        let resolved = max(startedAt, stamps.resolvedAt ?? startedAt)
        let connected = max(resolved, stamps.tcpConnectedAt)
        let secured = stamps.tlsCompletedAt.map { max(connected, $0) }
        let opened = max(secured ?? connected, stamps.openedAt)
        dnsMs = resolved.milliseconds(since: startedAt)
        tcpMs = connected.milliseconds(since: resolved)
        tlsMs = secured.map { $0.milliseconds(since: connected) }
        upgradeMs = opened.milliseconds(since: secured ?? connected)
    }

    /// The sum of the phases: the session's `connect_ms`.
    package var totalMs: Double { dnsMs + tcpMs + (tlsMs ?? 0) + upgradeMs }
}
