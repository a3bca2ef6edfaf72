import Foundation
import NIOCore
import NIOPosix
import Synchronization
import WSCore

#if canImport(Glibc)
import Glibc
#endif

/// Measures how late the event loops of a group read what arrives for them: the generator's
/// `receive_lag_ms`.
///
/// vload stamps an inbound frame when its loop reads it. A loop busy with other sessions reads a
/// reply that has been waiting in the socket late, and every latency ending at that reply reads
/// long by as much. The probe makes that lateness visible: a thread outside the loops writes a
/// monotonic stamp into one pipe per loop every `intervalUs`, each loop reads its pipe like any
/// socket, and read time − stamp is how late that loop would have read a frame arriving then.
/// (Kernel receive timestamps on the TCP sockets would be exact per frame, but NIO's stream
/// channels read with `read(2)`, which carries no control messages; BENCHMARKS.md compares the
/// probe with the lateness it stands for.)
package final class ReceiveLagProbe: Sendable {
    package static let defaultIntervalUs: Int64 = 1_000

    private let channels: [any Channel]
    private let writeDescriptors: [CInt]
    private let stopRequested = Atomic<Bool>(false)
    private let writerDone = DispatchSemaphore(value: 0)

    private init(channels: [any Channel], writeDescriptors: [CInt]) {
        self.channels = channels
        self.writeDescriptors = writeDescriptors
    }

    /// Starts probing every loop of `group`. `recorder(loop)` is asked once per loop for where
    /// that loop's reads go: it gets the lags (µs) of each read and the instant of the read, on
    /// that loop. The one error: a pipe cannot be made or registered (its reason).
    package static func start(
        on group: MultiThreadedEventLoopGroup,
        intervalUs: Int64 = defaultIntervalUs,
        recorder: @escaping @Sendable (any EventLoop) -> @Sendable (_ lagsUs: [Int64], _ readAt: MonotonicInstant) -> Void
    ) async throws(InputError) -> ReceiveLagProbe {
        var channels: [any Channel] = []
        var writeDescriptors: [CInt] = []
        func giveUp(_ reason: String) async -> InputError {
            for channel in channels { try? await channel.close() }
            for descriptor in writeDescriptors { close(descriptor) }
            return InputError("cannot probe the event loops' receive lag: \(reason)")
        }
        for loop in group.makeIterator() {
            var ends: [CInt] = [0, 0]
            guard pipe(&ends) == 0 else { throw await giveUp(String(cString: strerror(errno))) }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            writeDescriptors.append(ends[1])
            do {
                let channel = try await NIOPipeBootstrap(group: loop)
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(ProbeReadHandler(record: recorder(loop)))
                        }
                    }
                    .takingOwnershipOfDescriptor(input: ends[0]).get()
                channels.append(channel)
            } catch {
                close(ends[0])
                throw await giveUp("\(error)")
            }
        }
        let probe = ReceiveLagProbe(channels: channels, writeDescriptors: writeDescriptors)
        let thread = Thread { probe.writeStamps(intervalUs: intervalUs) }
        thread.name = "vload-receive-lag-probe"
        thread.start()
        return probe
    }

    /// Stops the writer and closes the pipes. Call once, before the group shuts down.
    package func stop() async {
        stopRequested.store(true, ordering: .relaxed)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.writerDone.wait()
                done.resume()
            }
        }
        for descriptor in writeDescriptors { close(descriptor) }
        for channel in channels { try? await channel.close() }
    }

    /// One stamp into every loop's pipe, each taken just before its write (8 bytes: atomic).
    package func writeStamp() {
        for descriptor in writeDescriptors {
            var bytes = ProbeStamps.bytes(of: .now())
            _ = write(descriptor, &bytes, bytes.count)
        }
    }

    /// The writer thread: a stamp into every pipe on each tick of a monotonic schedule; ticks
    /// missed while the thread itself was held up are skipped, not made up. A full pipe (a
    /// loop that has not read for seconds) drops the stamp: those already queued show the lag.
    private func writeStamps(intervalUs: Int64) {
        var next = MonotonicInstant.now()
        while !stopRequested.load(ordering: .relaxed) {
            writeStamp()
            next = max(next.advanced(byMicroseconds: intervalUs), MonotonicInstant.now())
            var wake = timespec(tv_sec: Int(next.nanoseconds / 1_000_000_000), tv_nsec: Int(next.nanoseconds % 1_000_000_000))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, nil) == EINTR {}
        }
        writerDone.signal()
    }
}

/// Reads a probe pipe on its loop: the stamps' lags to the probe's recorder.
private final class ProbeReadHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private var stamps = ProbeStamps()
    private let record: @Sendable ([Int64], MonotonicInstant) -> Void

    init(record: @escaping @Sendable ([Int64], MonotonicInstant) -> Void) {
        self.record = record
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let readAt = MonotonicInstant.now()
        var buffer = Self.unwrapInboundIn(data)
        let lags = stamps.lagsUs(reading: &buffer, at: readAt)
        if !lags.isEmpty { record(lags, readAt) }
    }
}
