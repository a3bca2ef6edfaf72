/// How often a custom dialect wants a keep-alive message (`send.keepalive`, docs/custom-dialects.md); the message itself
/// is `frames(for: .keepAlive)`.
package struct CustomKeepAlive: Sendable, Hashable {
    package var everyMs: Int
    /// Send only while no other message has been sent for `everyMs`.
    package var onlyWhenIdle: Bool

    package init(everyMs: Int, onlyWhenIdle: Bool) {
        self.everyMs = everyMs
        self.onlyWhenIdle = onlyWhenIdle
    }
}
