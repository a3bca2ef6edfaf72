import WSCore

/// When a client connection passed each step of its opening, on the one monotonic clock
/// (`MonotonicInstant`); `ConnectPhases` turns them into the connect phases of a session.
///
/// Taken where each step is seen: the lookup's end on the thread that ran `getaddrinfo`, the
/// rest in the channel's handlers on its event loop.
package struct ConnectStamps: Sendable, Hashable {
    /// When the host name's lookup returned; nil for an IP-literal host, which needs none.
    package var resolvedAt: MonotonicInstant?
    /// When the TCP connection was established (`channelActive`): of the attempt that won,
    /// when Happy Eyeballs tried several addresses.
    package var tcpConnectedAt: MonotonicInstant
    /// When the TLS handshake completed (certificate checks included); nil for ws://.
    package var tlsCompletedAt: MonotonicInstant?
    /// When the server's 101 was received and validated: the connection's `openedAt`.
    package var openedAt: MonotonicInstant

    package init(
        resolvedAt: MonotonicInstant?,
        tcpConnectedAt: MonotonicInstant,
        tlsCompletedAt: MonotonicInstant?,
        openedAt: MonotonicInstant
    ) {
        self.resolvedAt = resolvedAt
        self.tcpConnectedAt = tcpConnectedAt
        self.tlsCompletedAt = tlsCompletedAt
        self.openedAt = openedAt
    }
}
