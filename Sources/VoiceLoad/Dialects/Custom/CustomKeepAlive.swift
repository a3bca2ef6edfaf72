/// How often a custom dialect wants a keep-alive message (`send.keepalive`, docs/custom-dialects.md); the message itself
/// is `frames(for: .keepAlive)`.
public struct CustomKeepAlive: Sendable, Hashable {
    public var everyMs: Int
    /// Send only while no other message has been sent for `everyMs`.
    public var onlyWhenIdle: Bool

    public init(everyMs: Int, onlyWhenIdle: Bool) {
        self.everyMs = everyMs
        self.onlyWhenIdle = onlyWhenIdle
    }
}
