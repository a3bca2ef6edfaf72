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
        while let first = repliesWhenPlayedOut.first, first.dueAt <= now {
            repliesWhenPlayedOut.removeFirst()
            actions += send(first.content)
        }
        if let next = repliesWhenPlayedOut.first { actions.append(.schedule(.repliesPlayedOut, at: next.dueAt)) }
        return actions
    }

    /// Playback was flushed: every reply waiting for it is sent now.
    mutating func flushRepliesPlayedOut() -> [Action] {
        let waiting = repliesWhenPlayedOut
        repliesWhenPlayedOut = []
        var actions: [Action] = [.cancel(.repliesPlayedOut)]
        for reply in waiting { actions += send(reply.content) }
        return actions
    }

    /// Sends `content` at `dueAt` (a reply timed `after_ms`), unless the connection ends first.
    mutating func scheduleDelayedReply(_ content: CodecReply.Content, at dueAt: MonotonicInstant) -> [Action] {
        let key = nextDelayedReplyKey
        nextDelayedReplyKey += 1
        delayedReplies[key] = content
        return [.schedule(.delayedReply(key), at: dueAt)]
    }

    mutating func delayedReplyDue(_ key: Int) -> [Action] {
        guard let content = delayedReplies.removeValue(forKey: key) else { return [] }
        return send(content)
    }

    /// On dialects without an end-of-turn event, looks for the quiet gap that ends a turn.
    mutating func scheduleQuietCheck() -> [Action] {
        guard quietCheckAt == nil, let due = tracker.nextQuietCheck else { return [] }
        quietCheckAt = due
        return [.schedule(.quietCheck, at: due)]
    }

    mutating func quietCheckDue(at now: MonotonicInstant) -> [Action] {
        quietCheckAt = nil
        let result = tracker.checkQuiet(at: now)
        guard result.ended else { return scheduleQuietCheck() }
        return emit(result.record) + silentReplies() + checkWait(at: now)
    }
}
