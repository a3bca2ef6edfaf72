import Synchronization

/// Where callers' noise is heard alone, told to the built-in simulator when it runs in vload's
/// own process (docs/callers.md, "What the simulator hears"): the windows of each noisy
/// caller's clips, as sent, that lie wholly before the clean clip's speech starts or after it
/// ends. The simulator's VAD takes such a window for silence, as an agent whose voice-activity
/// detection tells a voice from the noise around it would; every other window it judges by
/// `VoicingRule` as it always does.
///
/// A window is known by a 64-bit FNV-1a hash of its bytes (`WindowHash`), so the simulator
/// needs nothing but the audio it receives to look one up. At most `capacity` windows are
/// kept (8 bytes each in a set); the noise of callers made after that is heard as noise.
package final class NoiseWindows: Sendable {
    /// The most windows held: a million, 10,000 s of noise heard alone in 10 ms windows.
    package static let capacity = 1_000_000
    private let hashes = Mutex<Set<UInt64>>([])
    private let told = Atomic<Bool>(false)

    package init() {}

    /// Whether any caller has told of its noise: until then the simulator hashes nothing.
    package var isTelling: Bool { told.load(ordering: .relaxed) }

    /// How many windows are held.
    package var count: Int { hashes.withLock { $0.count } }

    /// Tells of `utterance`'s noise: each whole window of its frames (padding included) that
    /// ends by its speech start or starts at or after its speech end.
    package func tell(_ utterance: PreparedUtterance, rule: VoicingRule = VoicingRule()) {
        let format = utterance.format
        let windowSamples = rule.windows(rateHz: format.sampleRateHz).samples
        let windowBytes = windowSamples * format.bytesPerSample
        let rateHz = Int64(format.sampleRateHz)
        let speechStart = Int(utterance.boundaries.speechStartUs * rateHz / 1_000_000)
        let speechEnd = Int(utterance.boundaries.speechEndUs * rateHz / 1_000_000)
        let bytes = utterance.frames.flatMap { $0 }
        var found: [UInt64] = []
        var window = 0
        while (window + 1) * windowBytes <= bytes.count {
            let first = window * windowSamples
            if first + windowSamples <= speechStart || first >= speechEnd {
                var hash = WindowHash()
                hash.add(bytes[(window * windowBytes)..<((window + 1) * windowBytes)])
                found.append(hash.value)
            }
            window += 1
        }
        hashes.withLock { held in
            for hash in found where held.count < Self.capacity { held.insert(hash) }
        }
        if !found.isEmpty { told.store(true, ordering: .relaxed) }
    }

    /// Whether the window whose bytes hash to `hash` is noise heard alone.
    package func isNoise(_ hash: UInt64) -> Bool {
        hashes.withLock { $0.contains(hash) }
    }
}

/// A 64-bit FNV-1a hash of a window's bytes, fed in as many pieces as the window arrives in.
package struct WindowHash: Sendable, Hashable {
    package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    package mutating func add(_ bytes: some Collection<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value &*= 0x0000_0100_0000_01b3
        }
    }
}
