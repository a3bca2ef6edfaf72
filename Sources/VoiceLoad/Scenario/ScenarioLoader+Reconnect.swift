import Yams

extension ScenarioLoader {
    static let reconnectKeys = ["attempts", "backoff_ms", "max_backoff_ms"]

    /// `reconnect: {attempts: 3, backoff_ms: 500, max_backoff_ms: 8000}`: attempts 1–10,
    /// backoff_ms 1–60000 (default 500), max_backoff_ms ≥ backoff_ms (default 8000, or
    /// backoff_ms when that is larger).
    static func reconnect(_ node: Node, reader: NodeReader) throws(ScenarioError) -> ReconnectPolicy {
        guard let mapping = node.mapping else {
            throw reader.error(at: node, "'reconnect' must be a mapping like {attempts: 3, backoff_ms: 500, max_backoff_ms: 8000}")
        }
        try reader.rejectUnknownKeys(in: mapping, allowed: reconnectKeys, what: "field of 'reconnect'")
        guard let attemptsNode = mapping["attempts"] else {
            throw reader.error(at: node, "'reconnect' needs 'attempts' (how many reconnects a session may make, 1–10)")
        }
        let attempts = try ranged(attemptsNode, field: "reconnect.attempts", ReconnectPolicy.attemptsRange, reader: reader)
        let backoffMs =
            try mapping["backoff_ms"].map { node throws(ScenarioError) in
                try ranged(node, field: "reconnect.backoff_ms", ReconnectPolicy.backoffRangeMs, reader: reader)
            } ?? 500
        let maxBackoffMs: Int
        if let maxNode = mapping["max_backoff_ms"] {
            maxBackoffMs = try reader.positiveInt(maxNode, field: "reconnect.max_backoff_ms")
            guard maxBackoffMs >= backoffMs else {
                throw reader.error(
                    at: maxNode,
                    "'reconnect.max_backoff_ms' (\(maxBackoffMs)) must be at least 'reconnect.backoff_ms' (\(backoffMs))"
                )
            }
        } else {
            maxBackoffMs = max(8_000, backoffMs)
        }
        return ReconnectPolicy(attempts: attempts, backoffMs: backoffMs, maxBackoffMs: maxBackoffMs)
    }

    private static func ranged(_ node: Node, field: String, _ range: ClosedRange<Int>, reader: NodeReader) throws(ScenarioError) -> Int {
        guard let value = node.int, range.contains(value) else {
            throw reader.error(at: node, "'\(field)' must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }
}
