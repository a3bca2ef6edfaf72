/// One entry of `send.replies` (docs/custom-dialects.md): a frame to send in answer to every
/// inbound frame its `on` matcher accepts: at once, when playback reaches that point, or a
/// fixed delay after the frame arrived.
/// Its template may read the triggering message (`${msg.PATH}`).
struct CustomReplyRule: Sendable {
    let matcher: FrameMatcher
    let timing: CodecReply.Timing
    let template: MessageTemplate
}
