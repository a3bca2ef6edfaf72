import VoiceLoad
import WSCore

/// The answer to an utterance: the reply latency, then (with `toolCall` set) a tool call, then
/// the reply audio (or, speech-to-text, the final transcript), where a fault may strike
/// (`+Faults`).
///
/// Client-side tools (`awaitsToolResults`): the call goes out with an id, the agent waits for
/// the client's result with that id (at most `toolResultTimeoutMs`, then it answers anyway) and
/// speaks `toolLatencyMs` after it. Server-side tools: the call is announced as `started`, and
/// `toolLatencyMs` later as `completed`, and the reply follows at once.
extension SimulatorSession {
    struct PendingReply: Sendable, Hashable {
        enum Stage: Sendable, Hashable {
            /// The reply latency runs (the `.reply` timer).
            case thinking
            /// A client-side tool call is out (the `.toolResultTimeout` timer).
            case awaitingToolResult(callID: String)
            /// The tool runs (the `.toolDone` timer).
            case runningTool(callID: String)
            /// Due while the agent still speaks (barge-in ignored): it starts when that turn ends.
            case queued
        }

        var stage: Stage
        /// The drawn reply latency.
        var latencyMs: Int
        /// When the user's speech ended: the reply's latency counts from here.
        var speechEndedAt: MonotonicInstant
        /// When the reply is due: the end of the speech plus the drawn latency.
        var dueAt: MonotonicInstant
    }

    /// The reply latency is over: speech-to-text answers with its final result, an agent with
    /// a tool call or its reply.
    mutating func replyDue(at now: MonotonicInstant) -> [Action] {
        guard phase == .live, let pending = reply, pending.stage == .thinking else { return [] }
        statistics.replies += 1
        replyLatenessUs.append(max(0, now.microseconds(since: pending.dueAt)))
        guard speaks else {
            reply = nil
            return startReply(at: now, latencyMs: 0)
        }
        guard let tool = configuration.toolCall else { return beginReply(at: now) }
        toolCallsMade += 1
        statistics.toolCalls += 1
        let callID = "call_\(sessionID)_\(toolCallsMade)"
        if awaitsToolResults {
            reply?.stage = .awaitingToolResult(callID: callID)
            return [
                .send(.toolCall(name: tool, status: "requested", id: callID, arguments: configuration.toolArguments)),
                .schedule(.toolResultTimeout, at: now.advanced(byMilliseconds: Int64(configuration.toolResultTimeoutMs))),
            ]
        }
        reply?.stage = .runningTool(callID: callID)
        return [
            .send(.toolCall(name: tool, status: "started", id: callID, arguments: configuration.toolArguments)),
            .schedule(.toolDone, at: now.advanced(byMicroseconds: stretchedUs(ms: configuration.toolLatencyMs))),
        ]
    }

    /// A tool result from the client: counted, and when it answers the call the agent waits
    /// on, the reply follows after the tool latency.
    mutating func receiveToolResult(callID: String, at now: MonotonicInstant) -> [Action] {
        statistics.toolResults += 1
        guard reply?.stage == .awaitingToolResult(callID: callID) else { return [] }
        reply?.stage = .runningTool(callID: callID)
        return [
            .cancel(.toolResultTimeout),
            .schedule(.toolDone, at: now.advanced(byMicroseconds: stretchedUs(ms: configuration.toolLatencyMs))),
        ]
    }

    /// No result came: the agent answers anyway.
    mutating func toolResultTimedOut(at now: MonotonicInstant) -> [Action] {
        guard phase == .live, case .awaitingToolResult? = reply?.stage else { return [] }
        statistics.toolResultTimeouts += 1
        return beginReply(at: now)
    }

    /// The tool has run: a server-side call is reported completed, and the reply starts.
    mutating func toolFinished(at now: MonotonicInstant) -> [Action] {
        guard phase == .live, case .runningTool(let callID)? = reply?.stage else { return [] }
        var actions: [Action] = []
        if !awaitsToolResults, let tool = configuration.toolCall {
            actions.append(.send(.toolCall(name: tool, status: "completed", id: callID, arguments: configuration.toolArguments)))
        }
        return actions + beginReply(at: now)
    }

    /// The reply starts now, or when the agent's current turn ends. Its latency is the time
    /// since the end of the user's speech (the drawn latency when it came on time).
    mutating func beginReply(at now: MonotonicInstant) -> [Action] {
        guard let pending = reply else { return [] }
        guard stream == nil else {
            reply?.stage = .queued
            return []
        }
        reply = nil
        let elapsedMs = Int(now.microseconds(since: pending.speechEndedAt) / 1_000)
        return startReply(at: now, latencyMs: max(pending.latencyMs, elapsedMs))
    }

    /// Drops the reply on its way, with the timer of its stage.
    mutating func cancelReply() -> [Action] {
        guard let pending = reply else { return [] }
        reply = nil
        switch pending.stage {
        case .thinking: return [.cancel(.reply)]
        case .awaitingToolResult: return [.cancel(.toolResultTimeout)]
        case .runningTool: return [.cancel(.toolDone)]
        case .queued: return [.cancel(.queuedReply)]
        }
    }
}
