import Synchronization

/// Numbers the calls one Twilio client dialect makes, from 1, so every connection of a run
/// gets its own SIDs. Shared by copies of the dialect; safe from any thread.
final class TwilioCallCounter: Sendable {
    private let next = Mutex<UInt64>(1)

    /// The next call number.
    func take() -> UInt64 {
        next.withLock { number in
            defer { number += 1 }
            return number
        }
    }
}
