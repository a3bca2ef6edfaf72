import Foundation
import VoiceLoad

/// A failure the simulator can inject (`--sim-faults`, a scenario's `simulator: faults:`),
/// written `KIND[:ARG]`: `refuse:503`, `slow_ready:30000`, `close:4000`, `stall`, `malformed`,
/// `oversized:17825792`, `error_event`, `silence`, `drop_turn_end`, `slow_audio:0.8`, `audio_gap:300`.
///
/// `refuse` and `slow_ready` act on the session's start (per session only); the others act at a
/// reply to a caller utterance ("the fault's reply"; never the greeting).
package enum InjectedFault: Sendable, Hashable, CustomStringConvertible {
    /// The upgrade is answered with this HTTP status (401, 403, 429 or 503) and a small JSON body.
    case refuse(status: Int)
    /// `ready` is sent this much later than it would be (on top of the ready delay).
    case slowReady(ms: Int)
    /// A WebSocket close with this code, and the session ends.
    case close(code: Int)
    /// Nothing is sent for the rest of the session and input is ignored; the socket stays open.
    case stall
    /// One text frame of invalid JSON, then the reply as usual.
    case malformed
    /// One text frame of this many bytes (a JSON string of spaces), then the reply as usual.
    case oversized(bytes: Int)
    /// The dialect's in-band error (code `simulated_fault`), then the reply as usual.
    case errorEvent
    /// The reply is all-zero audio of the normal length, with the usual turn events.
    case silence
    /// The reply without its end-of-turn events (`agentAudioDone`, `turnComplete`).
    case dropTurnEnd
    /// The reply's audio paced at `rate` × real time (0.8: 0.8 s of audio per second), whatever
    /// the reply speed: a client playing it in real time runs dry again and again.
    case slowAudio(rate: Double)
    /// One pause of `ms` in the reply's audio, before its middle chunk (chunk count / 2).
    case audioGap(ms: Int)

    package static let refusalStatuses = [401, 403, 429, 503]

    package static let defaultSlowReadyMs = 30_000
    package static let slowReadyRangeMs = 1...600_000
    package static let defaultCloseCode = 1011
    /// Close codes an endpoint may send (RFC 6455 §7.4): not the reserved 1004–1006 and 1015.
    package static let closeCodeRanges = [1000...1003, 1007...1014, 3000...4999]
    /// 17 MiB: above the 16 MiB vload accepts.
    package static let defaultOversizedBytes = 17 * 1_024 * 1_024
    package static let oversizedRangeBytes = 2...(256 * 1_024 * 1_024)
    /// The pace `slow_audio` takes: above 0 (stopped) up to 1 (real time).
    package static let slowAudioRates = 0.01...1.0
    package static let audioGapRangeMs = 1...60_000
    /// The code and message of an injected in-band error.
    package static let errorCode = "simulated_fault"
    package static let errorMessage = "injected fault"

    /// The kind names, in the order faults are laid out on [0, 1).
    static let kindNames = [
        "refuse", "slow_ready", "close", "stall", "malformed", "oversized", "error_event", "silence", "drop_turn_end",
        "slow_audio", "audio_gap",
    ]

    /// Parses `KIND[:ARG]`; `spec` names the whole entry in errors.
    init(parsing text: String, spec: String) throws(InputError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let kind = parts[0]
        let argument = parts.count == 2 ? parts[1] : nil
        func number(_ what: String, in range: ClosedRange<Int>? = nil) throws(InputError) -> Int? {
            guard let argument else { return nil }
            guard let value = Int(argument), range?.contains(value) ?? true else {
                let bounds = range.map { " (\($0.lowerBound)–\($0.upperBound))" } ?? ""
                throw InputError("fault '\(spec)': \(kind) takes \(what)\(bounds), not '\(argument)'")
            }
            return value
        }
        func noArgument() throws(InputError) {
            if let argument { throw InputError("fault '\(spec)': \(kind) takes no argument (got ':\(argument)')") }
        }
        switch kind {
        case "refuse":
            let statuses = Self.refusalStatuses.map(String.init).joined(separator: ", ")
            guard let status = try number("an HTTP status"), Self.refusalStatuses.contains(status) else {
                throw InputError("fault '\(spec)': refuse needs a status, one of \(statuses) (refuse:503)")
            }
            self = .refuse(status: status)
        case "slow_ready":
            self = .slowReady(ms: try number("milliseconds", in: Self.slowReadyRangeMs) ?? Self.defaultSlowReadyMs)
        case "close":
            let code = try number("a close code") ?? Self.defaultCloseCode
            guard Self.closeCodeRanges.contains(where: { $0.contains(code) }) else {
                throw InputError("fault '\(spec)': close code \(code) cannot be sent (use 1000–1003, 1007–1014 or 3000–4999)")
            }
            self = .close(code: code)
        case "oversized":
            self = .oversized(bytes: try number("a frame length in bytes", in: Self.oversizedRangeBytes) ?? Self.defaultOversizedBytes)
        case "stall":
            try noArgument()
            self = .stall
        case "malformed":
            try noArgument()
            self = .malformed
        case "error_event":
            try noArgument()
            self = .errorEvent
        case "silence":
            try noArgument()
            self = .silence
        case "drop_turn_end":
            try noArgument()
            self = .dropTurnEnd
        case "slow_audio":
            let range = Self.slowAudioRates
            guard let argument, let rate = Double(argument), rate.isFinite, range.contains(rate) else {
                let got = argument.map { ", not '\($0)'" } ?? ""
                throw InputError(
                    "fault '\(spec)': slow_audio needs a pace, a fraction of real time in \(range.lowerBound)–\(range.upperBound) (slow_audio:0.8)\(got)"
                )
            }
            self = .slowAudio(rate: rate)
        case "audio_gap":
            guard argument != nil, let ms = try number("milliseconds", in: Self.audioGapRangeMs) else {
                throw InputError("fault '\(spec)': audio_gap needs the pause in milliseconds (audio_gap:300)")
            }
            self = .audioGap(ms: ms)
        default:
            throw InputError("fault '\(spec)': unknown kind '\(kind)' (known: \(Self.kindNames.joined(separator: ", ")))")
        }
    }

    package var kindName: String {
        switch self {
        case .refuse: return "refuse"
        case .slowReady: return "slow_ready"
        case .close: return "close"
        case .stall: return "stall"
        case .malformed: return "malformed"
        case .oversized: return "oversized"
        case .errorEvent: return "error_event"
        case .silence: return "silence"
        case .dropTurnEnd: return "drop_turn_end"
        case .slowAudio: return "slow_audio"
        case .audioGap: return "audio_gap"
        }
    }

    /// The spec with its argument spelled out: `refuse:503`, `close:1011`, `stall`.
    package var description: String {
        switch self {
        case .refuse(let status): return "refuse:\(status)"
        case .slowReady(let ms): return "slow_ready:\(ms)"
        case .close(let code): return "close:\(code)"
        case .oversized(let bytes): return "oversized:\(bytes)"
        case .slowAudio(let rate): return "slow_audio:\(rate)"
        case .audioGap(let ms): return "audio_gap:\(ms)"
        case .stall, .malformed, .errorEvent, .silence, .dropTurnEnd: return kindName
        }
    }

    /// What it is counted as in `SimulatorStatistics.faultsInjected`: `refuse_503`,
    /// `close_1011`, and the kind name for the others (`slow_audio`, `audio_gap`: one count
    /// per kind, whatever the argument).
    package var countKey: String {
        switch self {
        case .refuse(let status): return "refuse_\(status)"
        case .close(let code): return "close_\(code)"
        default: return kindName
        }
    }

    /// Whether it strikes at a reply (and so may be drawn per turn); false for `refuse` and
    /// `slow_ready`, which act on the session's start.
    package var actsOnReply: Bool {
        switch self {
        case .refuse, .slowReady: return false
        default: return true
        }
    }

    /// Where it lies in the layout on [0, 1): by kind in the order of `kindNames`, then argument.
    var layoutRank: [Int] {
        let kind = Self.kindNames.firstIndex(of: kindName) ?? Self.kindNames.count
        switch self {
        case .refuse(let status): return [kind, status]
        case .slowReady(let ms): return [kind, ms]
        case .close(let code): return [kind, code]
        case .oversized(let bytes): return [kind, bytes]
        case .slowAudio(let rate): return [kind, Int((rate * 1_000_000).rounded())]
        case .audioGap(let ms): return [kind, ms]
        default: return [kind, 0]
        }
    }
}
