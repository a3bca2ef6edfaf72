/// What one inbound frame means to the client: events, and frames to send in reply.
package struct DecodedFrame: Sendable, Hashable, ExpressibleByArrayLiteral {
    package var events: [NormalizedEvent]
    package var replies: [CodecReply]

    package init(events: [NormalizedEvent], replies: [CodecReply] = []) {
        self.events = events
        self.replies = replies
    }

    package init(arrayLiteral events: NormalizedEvent...) {
        self.init(events: events)
    }
}
