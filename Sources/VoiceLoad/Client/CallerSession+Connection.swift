import WSCore

/// The connection of one attempt: being opened, open, ended. Frames that arrive before the
/// upgrade's future has handed the connection to `VirtualClient` (a server that speaks first,
/// Deepgram `Welcome`) are held and handled, in order, once it opens: their replies go out
/// after the dialect's opening frames, and their events are measured from the open. While the
/// connection is open, the `keepAlive` timer sends the dialect's keep-alive message.
extension CallerSession {
    enum ConnectionState: Sendable, Hashable {
        /// Being opened (the REST step, TCP, TLS, the upgrade): frames are held.
        case connecting
        case open
        /// Closed or failed, or the attempt is over.
        case ended
    }

    /// A frame that arrived before the connection opened.
    struct HeldFrame: Sendable, Hashable {
        var frame: WireFrame
        var receivedAt: MonotonicInstant
    }

    /// A frame came off the socket at `receivedAt`: handled now, or held until the open.
    mutating func frameArrived(_ frame: WireFrame, at receivedAt: MonotonicInstant) -> [Action] {
        guard connectionState == .connecting else { return [.handleFrame(frame, receivedAt: receivedAt)] }
        framesBeforeOpen.append(HeldFrame(frame: frame, receivedAt: receivedAt))
        return []
    }

    /// The connection opened at `at` and its opening frames went out; handed over at `now`. The
    /// session is ready on dialects whose ready signal is the open, the keep-alive starts, and
    /// the frames held are handled. A connection that ended before it was handed over (closed
    /// right after speaking first) still has its frames handled, but no keep-alive.
    mutating func connectionOpened(at: MonotonicInstant, now: MonotonicInstant) -> [Action] {
        openedAt = at
        if connectionState == .connecting { connectionState = .open }
        var actions = readySignal == .onOpen ? markReady(at: at) : []
        if connectionState == .open, let policy = keepAlive, policy.everyMs > 0 {
            actions.append(.schedule(.keepAlive, at: now.advanced(byMilliseconds: Int64(policy.everyMs))))
        }
        actions += framesBeforeOpen.map { Action.handleFrame($0.frame, receivedAt: $0.receivedAt) }
        framesBeforeOpen = []
        return actions
    }

    /// The `keepAlive` timer fired: the dialect's keep-alive goes out unless the caller is
    /// hanging up, or the microphone is streaming (and the policy does not say always); the
    /// next one is due `everyMs` later, for as long as the connection is open.
    mutating func keepAliveDue(at now: MonotonicInstant) -> [Action] {
        guard connectionState == .open, let policy = keepAlive, policy.everyMs > 0 else { return [] }
        let next = Action.schedule(.keepAlive, at: now.advanced(byMilliseconds: Int64(policy.everyMs)))
        guard !hangingUp, microphone == nil || policy.whileStreaming else { return [next] }
        return [.send(.keepAlive), next]
    }
}
