/// How often a dialect's keep-alive message goes out (`ClientDialect.keepAlive`): Deepgram
/// closes a stream that has carried neither audio nor `KeepAlive` for about 10 s, so vload
/// sends one every 5 s while the microphone is not streaming (before the first `say`).
package struct KeepAlivePolicy: Sendable, Hashable {
    /// The interval; the scenario's `keepalive_ms` overrides it (0 turns keep-alives off).
    package var everyMs: Int
    /// Send even while audio streams (a custom dialect's `only_when_idle: false`).
    package var whileStreaming: Bool

    package init(everyMs: Int, whileStreaming: Bool = false) {
        self.everyMs = everyMs
        self.whileStreaming = whileStreaming
    }
}
