import NIOPosix
import Testing
import WSCore

@testable import VoiceLoad

@Suite("Recorder and histograms")
struct RecorderTests {
    @Test("turns and sessions feed their metrics; absent figures are not recorded as zero")
    func recordsRows() {
        let recorder = Recorder()
        var turn = TurnRecord(
            client: 0,
            iteration: 0,
            turn: 1,
            label: "a",
            outcome: .completed,
            speechStartOffsetUs: 300_000,
            speechEndOffsetUs: 1_800_000
        )
        turn.firstAudioFromEndUs = 712_500
        turn.firstAudioFromStartUs = 2_212_500
        recorder.recordTurn(turn)
        var session = SessionRecord(client: 0, iteration: 0)
        session.connectUs = 1_250
        recorder.recordSession(session)
        recorder.recordError(.upgradeRejected(status: 401), client: 0, iteration: 0, detail: .test("HTTP 401"))
        recorder.recordError(.timeout(step: "wait_ready"), client: 0, iteration: 0, detail: .test("no ready within 10000 ms"))
        recorder.recordFrameSent(lagUs: 150)
        let snapshot = recorder.snapshot()
        #expect(snapshot.histograms[.firstAudioFromEndMs]?.count == 1)
        #expect(snapshot.histograms[.firstVoicedAudioFromEndMs] == nil)
        #expect(snapshot.histograms[.turnDurationMs] == nil)
        #expect(snapshot.histograms[.connectMs]?.summary?.p50Ms == 1.25)
        #expect(snapshot.errors == ["upgrade_rejected_401": 1, "timeout_wait_ready": 1])
        #expect(snapshot.totals.turnsByOutcome == [.completed: 1])
        #expect(snapshot.sessionsCompleted == 1 && snapshot.framesSent == 1)
    }

    @Test("each event loop records its frames apart; the snapshot and the live figures add the loops together")
    func loopRecorders() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let loops = Array(group.makeIterator())
        let warmupEndsAt = MonotonicInstant(nanoseconds: 1_000_000_000)
        let recorder = Recorder(startedAt: MonotonicInstant(nanoseconds: 0), warmupEndsAt: warmupEndsAt, eventLoops: loops)
        let first = recorder.loopRecorder(for: loops[0])
        let second = recorder.loopRecorder(for: loops[1])
        #expect(first !== second)
        #expect(recorder.loopRecorder(for: loops[0]) === first)
        // A loop that is not the run's records into the recorder's own.
        let other = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        #expect(recorder.loopRecorder(for: other.next()) !== first && recorder.loopRecorder(for: other.next()) !== second)
        try await loops[0].submit {
            first.recordFrameSent(lagUs: 9_000, sentAt: warmupEndsAt.advanced(byMilliseconds: -1))  // counted, not measured
            first.recordFrameSent(lagUs: 100, sentAt: warmupEndsAt)
            first.recordReceiveLags([50, 70], readAt: warmupEndsAt)
        }.get()
        try await loops[1].submit {
            second.recordFrameSent(lagUs: 300, sentAt: warmupEndsAt.advanced(byMilliseconds: 20))
            second.recordReceiveLags([5_000], readAt: warmupEndsAt.advanced(byMilliseconds: -1))  // within the warm-up
            second.recordReceiveLags([900], readAt: warmupEndsAt.advanced(byMilliseconds: 1))
        }.get()
        recorder.recordFrameSent(lagUs: 200, sentAt: warmupEndsAt.advanced(byMilliseconds: 40))
        let snapshot = recorder.snapshot()
        #expect(snapshot.framesSent == 4)
        #expect(snapshot.histograms[.sendLagMs]?.count == 3)
        #expect(snapshot.histograms[.sendLagMs]?.summary?.maxMs == 0.3)
        #expect(snapshot.histograms[.receiveLagMs]?.count == 3)
        #expect(snapshot.histograms[.receiveLagMs]?.summary?.maxMs == 0.9)
        let live = recorder.liveFigures(at: warmupEndsAt.advanced(byMilliseconds: 100))
        #expect(live.framesSent == 4)
        #expect(live.sendLagP99Ms == 0.3 && live.receiveLagP99Ms == 0.9)
        try await group.shutdownGracefully()
        try await other.shutdownGracefully()
    }

    @Test("a histogram survives its sparse serialization exactly, and merges")
    func histogramRoundTrip() {
        var histogram = LatencyHistogram()
        for value in stride(from: Int64(100), through: 2_000_000, by: 977) { histogram.record(microseconds: value) }
        // As report.json keeps it: the sparse buckets and the exact range (the summary's max is
        // the exact largest value, which the buckets alone keep only to their precision).
        let copy = LatencyHistogram(sparseValues: histogram.sparseValues, exactRange: histogram.exactRange)
        #expect(copy.count == histogram.count)
        #expect(copy.summary == histogram.summary)
        #expect(histogram.summary?.maxMs == 1_999.042, "the exact largest value, not its bucket's top")
        var merged = histogram
        merged.add(copy)
        #expect(merged.count == 2 * histogram.count)
        #expect(merged.summary?.p99Ms == histogram.summary?.p99Ms)
    }

    @Test("spare histograms made before the run serve the first samples: the snapshot is the same as without them")
    func spareHistograms() {
        func record(into recorder: Recorder) -> Recorder.Snapshot {
            var turn = TurnRecord(
                client: 0,
                iteration: 0,
                turn: 1,
                label: "greeting",
                outcome: .completed,
                speechStartOffsetUs: 300_000,
                speechEndOffsetUs: 1_800_000
            )
            turn.firstAudioFromEndUs = 712_500
            turn.turnDurationUs = 2_000_000
            recorder.recordTurn(turn)
            var session = SessionRecord(client: 0, iteration: 0)
            session.connectUs = 1_250
            session.readyUs = 100_500
            recorder.recordSession(session)
            recorder.recordReceiveLags([10, 20, 1_500])
            return recorder.snapshot()
        }
        // Three spares for seven histograms: the rest are made when needed.
        let withSpares = record(into: Recorder(spareHistograms: LatencyHistogram.spares(3)))
        let without = record(into: Recorder())
        #expect(withSpares.histograms.count == 5 && without.histograms.count == 5)
        for (metric, histogram) in without.histograms {
            #expect(withSpares.histograms[metric]?.summary == histogram.summary, "\(metric)")
        }
        #expect(withSpares.labelHistograms["greeting"]?.mapValues(\.summary) == without.labelHistograms["greeting"]?.mapValues(\.summary))
        #expect(withSpares.histograms[.receiveLagMs]?.summary?.maxMs == 1.5)
    }
}
