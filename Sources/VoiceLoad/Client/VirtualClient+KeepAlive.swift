import NIOCore

/// The dialect's keep-alive message (Deepgram `KeepAlive`, a custom dialect's
/// `send.keepalive`), sent every `KeepAlivePolicy.everyMs` while the connection is open: only
/// while the microphone is not streaming, unless the policy says always.
extension VirtualClient {
    func startKeepAlive() {
        keepAliveTimer?.cancel()
        keepAliveTimer = nil
        guard let policy = plan.keepAlive, policy.everyMs > 0 else { return }
        let interval = TimeAmount.milliseconds(Int64(policy.everyMs))
        keepAliveTimer = eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { [self] _ in
            self.assumeIsolated { $0.keepAliveDue(policy) }
        }
    }

    private func keepAliveDue(_ policy: KeepAlivePolicy) {
        guard let connection, !caller.hangingUp else { return }
        if caller.microphone != nil, !policy.whileStreaming { return }
        for frame in codec.frames(for: .keepAlive) { connection.send(EncodedFrame(frame)) }
    }
}
