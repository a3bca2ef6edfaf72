/// Attempts to reach the endpoint, apart from sessions: a session is one caller's call, which
/// may take several attempts (`reconnect:`), and a session that never got ready is an attempt
/// that failed.
package struct ConnectionAttemptCounts: Codable, Sendable, Hashable {
    private enum CodingKeys: String, CodingKey {
        case total
        case failedBeforeReady = "failed_before_ready"
    }

    /// Every attempt: each session's first, and its reconnects.
    package var total: Int
    /// Attempts that failed before the session was ready.
    package var failedBeforeReady: Int

    package init(total: Int, failedBeforeReady: Int) {
        self.total = total
        self.failedBeforeReady = failedBeforeReady
    }
}
