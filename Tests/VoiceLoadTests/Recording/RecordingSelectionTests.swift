import Testing

@testable import VoiceLoad

@Suite("Recordings: which calls")
struct RecordingSelectionTests {
    typealias Fixture = RecordingFixture

    @Test("worst:N holds the N slowest first-audio calls, at most N at a time, slowest first")
    func worst() {
        var selection = RecordingSelection(policy: RecordPolicy(worstCount: 2))
        var decisions: [String] = []
        for (client, firstAudioMs) in [(0, 100), (1, 300), (2, 200), (3, 50), (4, 250)] as [(Int, Int64)] {
            switch selection.offer(Fixture.call(client: client, firstAudioMs: firstAudioMs)) {
            case .held: decisions.append("held")
            case .dropped: decisions.append("dropped")
            case .writeNow: decisions.append("written")
            }
            #expect(selection.heldCount <= 2)
        }
        #expect(decisions == ["held", "held", "held", "dropped", "held"])
        #expect(selection.takeWorst().map(\.recording.client) == [1, 4])
        #expect(selection.takeWorst().isEmpty)
        // A call without first audio is never among the slowest.
        if case .dropped = selection.offer(Fixture.call(client: 5, firstAudioMs: nil)) {
        } else {
            Issue.record("held a call without first audio")
        }
    }

    @Test("failed: a failed call, one with a timed-out turn, one past a latency threshold; not the others")
    func failed() throws {
        let threshold = try ThresholdExpression.parse("first_audio_from_end_ms.p95 < 250")
        var selection = RecordingSelection(policy: RecordPolicy(failed: true), thresholds: [threshold])
        let cases: [(FinishedCall, [String]?)] = [
            (Fixture.call(client: 0, firstAudioMs: 100, outcome: .failed), ["failed"]),
            (Fixture.call(client: 1, firstAudioMs: nil, turnOutcome: .timedOut), ["failed"]),
            (Fixture.call(client: 2, firstAudioMs: 300), ["threshold"]),
            (Fixture.call(client: 3, firstAudioMs: 100), nil),
        ]
        for (call, reasons) in cases {
            switch selection.offer(call) {
            case .writeNow(let given): #expect(given == reasons, "client \(call.recording.client)")
            default: #expect(reasons == nil, "client \(call.recording.client)")
            }
        }
        #expect(selection.takeWorst().isEmpty)
    }

    @Test("all writes every call; none writes none; a failed call among the worst keeps its place, written once")
    func allAndNone() {
        var all = RecordingSelection(policy: RecordPolicy(all: true))
        var none = RecordingSelection(policy: .none)
        for client in 0..<3 {
            if case .writeNow(let reasons) = all.offer(Fixture.call(client: client, firstAudioMs: 100)) {
                #expect(reasons == ["all"])
            } else {
                Issue.record("all did not write client \(client)")
            }
            if case .dropped = none.offer(Fixture.call(client: client, firstAudioMs: 100)) {} else { Issue.record("none kept a call") }
        }
        var standard = RecordingSelection(policy: RecordPolicy(worstCount: 1, failed: true))
        guard case .writeNow = standard.offer(Fixture.call(client: 0, firstAudioMs: 900, outcome: .failed)) else {
            Issue.record("the failed call was not written")
            return
        }
        if case .dropped = standard.offer(Fixture.call(client: 1, firstAudioMs: 400)) {} else { Issue.record("a faster call was held") }
        #expect(standard.takeWorst().isEmpty)
    }
}
