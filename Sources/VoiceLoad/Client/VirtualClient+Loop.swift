/// Entering the client from the code NIO calls on its event loop: the pacer's wake-up, the
/// connection's events, the attempt's timers.
extension VirtualClient {
    /// Runs `body` isolated to this client. Called on the client's event loop, which is the
    /// actor's executor, so the client is isolated there; off the loop it stops the process, as
    /// `assumeIsolated` does.
    ///
    /// `assumeIsolated` asks the Swift runtime whether the current executor is the actor's (and
    /// first whether it is the main one): about 600 instructions, and a frame's way makes two
    /// such calls, its paced send and its share of the reads (BENCHMARKS.md, "Instructions per
    /// frame"). The loop answers the same question by comparing its thread; the cast is what
    /// `assumeIsolated` does once its check has passed.
    nonisolated func onLoop<T>(_ body: (isolated VirtualClient) throws -> T) rethrows -> T {
        eventLoop.preconditionInEventLoop()
        return try withoutActuallyEscaping(body) { escapable in
            try unsafeBitCast(escapable, to: ((VirtualClient) throws -> T).self)(self)
        }
    }
}
