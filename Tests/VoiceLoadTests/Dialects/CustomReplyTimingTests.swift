import Testing
import WSCore

@testable import VoiceLoad

/// `send.replies[].at` (docs/custom-dialects.md): immediately, when playback reaches the frame, or
/// a fixed delay after it arrived.
@Suite("Custom dialect: reply timing")
struct CustomReplyTimingTests {
    typealias Support = CustomDialectTestSupport

    static let yaml = """
        send:
          replies:
            - on: {"$.event": "ping"}
              at: "after_ms:250"
              json: {"event": "pong", "id": "${msg.id}"}
            - on: {"$.event": "ping"}
              at: after_ms:0
              json: {"event": "ack"}
            - on: {"$.event": "ping"}
              json: {"event": "seen"}
        """

    @Test func delayedRepliesCarryTheirDelay() throws {
        let dialect = try Support.dialect(Self.yaml)
        var codec = dialect.makeCodec(parameters: [:])
        let decoded = codec.receive(.text(#"{"event":"ping","id":7}"#))
        #expect(decoded.events == [])
        #expect(
            decoded.replies == [
                CodecReply(.text(#"{"event":"pong","id":"7"}"#), timing: .afterMs(250)),
                CodecReply(.text(#"{"event":"ack"}"#), timing: .afterMs(0)),
                CodecReply(.text(#"{"event":"seen"}"#), timing: .immediately),
            ]
        )
    }

    @Test(arguments: [
        ("\"after_ms:-5\"", "the delay must be a whole number of milliseconds from 0 to 3600000"),
        ("\"after_ms:1.5\"", "the delay must be a whole number"),
        ("\"after_ms:\"", "the delay must be a whole number"),
        ("\"after_ms:3600001\"", "from 0 to 3600000"),
        ("later", "'at' must be one of: immediately, playback_reaches_here, after_ms:<n>"),
    ])
    func badTimingsAreLoadErrors(at: String, message: String) throws {
        let body = "send:\n  replies: [{on: {\"$.e\": m}, at: \(at), json: {}}]\n"
        let error = try #require(Support.loadError(Support.head + body))
        #expect(error.line == 5)
        #expect(error.column == 34, "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func dueTimes() {
        let arrival = MonotonicInstant(nanoseconds: 10_000_000_000)
        let drains = MonotonicInstant(nanoseconds: 12_000_000_000)
        #expect(CodecReply.Timing.immediately.dueAt(receivedAt: arrival, playbackDrainsAt: drains) == nil)
        #expect(CodecReply.Timing.whenPlayedOut.dueAt(receivedAt: arrival, playbackDrainsAt: drains) == drains)
        #expect(CodecReply.Timing.whenPlayedOut.dueAt(receivedAt: arrival, playbackDrainsAt: nil) == arrival)
        #expect(
            CodecReply.Timing.whenPlayedOut.dueAt(receivedAt: drains, playbackDrainsAt: arrival) == drains,
            "never before the frame arrived"
        )
        #expect(
            CodecReply.Timing.afterMs(250).dueAt(receivedAt: arrival, playbackDrainsAt: drains)
                == MonotonicInstant(nanoseconds: 10_250_000_000),
            "playback does not matter"
        )
    }
}
