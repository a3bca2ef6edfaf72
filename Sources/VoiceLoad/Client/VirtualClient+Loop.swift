import WSCore

/// Entering the client from the code NIO calls on its event loop: the pacer's wake-up, the
/// connection's events, the attempt's timers.
extension VirtualClient {
    /// What NIO's code hands the client on its loop.
    enum LoopEntry {
        /// The pacer's wake-up for the frame queued with `token`.
        case pacingDue(token: Int)
        /// An event of the connection opened by attempt `serial`.
        case connection(WebSocketConnectionEvent, attemptSerial: Int)
        /// One of the attempt's timers has fired.
        case timer(CallAttempt.Timer)
    }

    /// Enters the client with `entry`. Called on the client's event loop, which is the actor's
    /// executor, so the client is isolated there; off the loop it stops the process, as
    /// `assumeIsolated` does.
    ///
    /// `assumeIsolated` asks the Swift runtime whether the current executor is the actor's (and
    /// first whether it is the main one): about 600 instructions, and a frame's way makes two
    /// such calls, its paced send and its share of the reads. The loop answers the same
    /// question by comparing its thread. Then, as `assumeIsolated` does once its check has
    /// passed, the isolated function is called as a plain one: here a static function, so
    /// nothing is allocated, where passing a closure through `withoutActuallyEscaping`
    /// allocated two objects a call, 640 instructions a frame (BENCHMARKS.md,
    /// "Instructions per frame").
    nonisolated func enter(_ entry: LoopEntry) {
        eventLoop.preconditionInEventLoop()
        let isolatedEnter: (isolated VirtualClient, LoopEntry) -> Void = VirtualClient.enterIsolated
        unsafeBitCast(isolatedEnter, to: ((VirtualClient, LoopEntry) -> Void).self)(self, entry)
    }

    private static func enterIsolated(_ client: isolated VirtualClient, _ entry: LoopEntry) {
        switch entry {
        case .pacingDue(let token):
            // A frame queued for a stream that has stopped since is ignored.
            guard token == client.pacingToken else { return }
            client.sendDueFrames()
        case .connection(let event, let serial):
            // A late close of the previous attempt's socket is not this attempt's business.
            guard client.attemptSerial == serial else { return }
            client.handle(event)
        case .timer(let timer):
            client.timerFired(timer)
        }
    }
}
