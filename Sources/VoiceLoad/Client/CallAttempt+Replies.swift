import WSCore

/// Frames the dialect answers the server with, when their moment comes: once the audio received
/// before them has played (Twilio `mark` echoes), or a set delay after their frame (`after_ms`).
/// On dialects without an end-of-turn event, the quiet gap that ends a turn is looked for here too.
extension CallAttempt {
    /// A reply waiting for its moment.
    struct DueReply: Sendable, Hashable {
        var content: CodecReply.Content
        var dueAt: MonotonicInstant
    }

    /// Sends the replies whose audio has played by `now` and sets the timer for the next.
    mutating func sendRepliesPlayedOut(at now: MonotonicInstant) -> [Action] {
        var actions: [Action] = [.cancel(.repliesPlayedOut)]
        while let first = state.repliesWhenPlayedOut.first, first.dueAt <= now {
            state.repliesWhenPlayedOut.removeFirst()
            actions += send(first.content)
        }
        if let next = state.repliesWhenPlayedOut.first { actions.append(.schedule(.repliesPlayedOut, at: next.dueAt)) }
        return actions
    }

    /// Playback was flushed: every reply waiting for it is sent now.
    mutating func flushRepliesPlayedOut() -> [Action] {
        let waiting = state.repliesWhenPlayedOut
        state.repliesWhenPlayedOut = []
        var actions: [Action] = [.cancel(.repliesPlayedOut)]
        for reply in waiting { actions += send(reply.content) }
        return actions
    }

    /// Sends `content` at `dueAt` (a reply timed `after_ms`), unless the connection ends first.
    mutating func scheduleDelayedReply(_ content: CodecReply.Content, at dueAt: MonotonicInstant) -> [Action] {
        let key = state.nextDelayedReplyKey
        state.nextDelayedReplyKey += 1
        state.delayedReplies[key] = content
        return [.schedule(.delayedReply(key), at: dueAt)]
    }

    mutating func delayedReplyDue(_ key: Int) -> [Action] {
        guard let content = state.delayedReplies.removeValue(forKey: key) else { return [] }
        return send(content)
    }

    /// On dialects without an end-of-turn event, looks for the quiet gap that ends a turn.
    mutating func scheduleQuietCheck() -> [Action] {
        guard state.quietCheckAt == nil, let due = state.tracker.nextQuietCheck else { return [] }
        state.quietCheckAt = due
        return [.schedule(.quietCheck, at: due)]
    }

    mutating func quietCheckDue(at now: MonotonicInstant) -> [Action] {
        state.quietCheckAt = nil
        let result = state.tracker.checkQuiet(at: now)
        guard result.ended else { return scheduleQuietCheck() }
        var actions = emit(result.record) + silentReplies()
        checkWait(at: now).append(to: &actions)
        return actions
    }
}
