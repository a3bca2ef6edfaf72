/// One entry of `send.replies` (docs/custom-dialects.md): a frame to send in answer to every
/// inbound frame its `on` matcher accepts: at once, when playback reaches that point, or a
/// fixed delay after the frame arrived.
/// Its template may read the triggering message (`${msg.PATH}`).
package struct CustomReplyRule: Sendable {
    package let matcher: FrameMatcher
    package let timing: CodecReply.Timing
    package let template: MessageTemplate
}
