import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing
import WSCore

@testable import VoiceLoad

@Suite("Receive-lag probe")
struct ReceiveLagProbeTests {
    private func bytes(_ stampsNs: [UInt64]) -> ByteBuffer {
        ByteBuffer(bytes: stampsNs.flatMap { ProbeStamps.bytes(of: MonotonicInstant(nanoseconds: $0)) })
    }

    @Test("each whole stamp gives read time − stamp, in the order written")
    func wholeStamps() {
        var stamps = ProbeStamps()
        var buffer = bytes([1_000_000, 1_500_000, 2_999_000])
        #expect(stamps.lagsUs(reading: &buffer, at: MonotonicInstant(nanoseconds: 3_000_000)) == [2_000, 1_500, 1])
        #expect(buffer.readableBytes == 0)
    }

    @Test("a stamp split over two reads counts once, at the second read")
    func splitStamp() {
        var stamps = ProbeStamps()
        let whole = bytes([1_000_000, 2_000_000])
        var first = whole.getSlice(at: 0, length: 11)!
        var second = whole.getSlice(at: 11, length: 5)!
        #expect(stamps.lagsUs(reading: &first, at: MonotonicInstant(nanoseconds: 4_000_000)) == [3_000])
        #expect(stamps.lagsUs(reading: &second, at: MonotonicInstant(nanoseconds: 5_000_000)) == [3_000])
        var empty = ByteBuffer()
        #expect(stamps.lagsUs(reading: &empty, at: MonotonicInstant(nanoseconds: 6_000_000)) == [])
    }

    @Test("a stamp read at or before its own instant is no lag, never negative")
    func noNegativeLag() {
        var stamps = ProbeStamps()
        var buffer = bytes([5_000_000, 5_000_500])
        #expect(stamps.lagsUs(reading: &buffer, at: MonotonicInstant(nanoseconds: 5_000_000)) == [0, 0])
    }

    @Test("a loop held up reads the stamp written meanwhile at least as late as it was held")
    func heldLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let lags = Mutex<[Int64]>([])
        // A slow writer tick, so the stamp that matters is the one written below.
        let probe = try await ReceiveLagProbe.start(on: group, intervalUs: 50_000) { _ in
            { sample, _ in lags.withLock { $0 += sample } }
        }
        let release = DispatchSemaphore(value: 0)
        let entered = Atomic<Bool>(false)
        let held = group.next().submit {
            entered.store(true, ordering: .sequentiallyConsistent)
            release.wait()
        }
        for _ in 0..<1_000 where !entered.load(ordering: .sequentiallyConsistent) {
            try await Task.sleep(for: .milliseconds(10))
        }
        // Every stamp is taken before writeStamp returns, and the loop is released 30 ms or more after.
        probe.writeStamp()
        let stampedBy = MonotonicInstant.now()
        try await Task.sleep(for: .milliseconds(30))
        let waitedUs = MonotonicInstant.now().microseconds(since: stampedBy)
        release.signal()
        try await held.get()
        // The loop reads the stamp once released (bounded: 10 s).
        for _ in 0..<1_000 where lags.withLock({ $0.max() ?? 0 }) < waitedUs {
            try await Task.sleep(for: .milliseconds(10))
        }
        await probe.stop()
        try await group.shutdownGracefully()
        #expect(lags.withLock { $0.max() ?? 0 } >= waitedUs)
    }
}
