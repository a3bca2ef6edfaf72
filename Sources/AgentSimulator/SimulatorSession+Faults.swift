import VoiceLoad
import WSCore

/// Injected faults (`configuration.faults`, see `FaultPlan`). The session's own fault, drawn
/// from its number when it is created, strikes at `ready` (`slow_ready`) or at the first reply
/// the agent starts; any other reply takes a per-turn fault from the simulator-wide
/// `replyFaults`. The greeting never gets one. A fault is counted in
/// `statistics.faultsInjected` when it is performed, so a session that ends before its fault's
/// moment does not count it.
extension SimulatorSession {
    /// The `ready` timer: the ready delay, plus the delay of a `slow_ready` fault (counted here,
    /// when the late ready is set in motion: the client may well give up before it comes).
    mutating func scheduleReady(at now: MonotonicInstant) -> Action {
        var delayUs = stretchedUs(ms: configuration.readyDelayMs)
        if case .slowReady(let ms)? = sessionFault {
            sessionFault = nil
            count(.slowReady(ms: ms))
            delayUs += Int64(ms) * 1_000
        }
        return .schedule(.ready, at: now.advanced(byMicroseconds: delayUs))
    }

    /// The fault of the reply starting now: the session's own at its first reply (this reply
    /// then draws no per-turn fault), else this reply's draw.
    mutating func takeReplyFault() -> InjectedFault? {
        if let fault = sessionFault, fault.actsOnReply {
            sessionFault = nil
            return fault
        }
        return replyFaults?.next()
    }

    /// A reply to the user starts (`latencyMs` after the end of their speech): the agent's
    /// audio, or speech-to-text's final transcript, as its fault (if any) changes it. `close`
    /// and `stall` end it there; `malformed`, `oversized` and `error_event` send their frame
    /// first; `silence` streams silence instead of the reply; `drop_turn_end` withholds the
    /// turn's end events; `slow_audio` and `audio_gap` change the pace of its audio.
    mutating func startReply(at now: MonotonicInstant, latencyMs: Int) -> [Action] {
        let fault = takeReplyFault()
        var actions: [Action] = []
        if let fault {
            count(fault)
            switch fault {
            case .close(let code):
                return endSession(at: now) + [.close(code: code)]
            case .stall:
                let actions = endSession(at: now)
                phase = .stalled
                return actions
            case .malformed:
                actions = [.sendInvalid(.malformedJSON)]
            case .oversized(let bytes):
                actions = [.sendInvalid(.oversized(bytes: bytes))]
            case .errorEvent:
                actions = [.send(.error(code: InjectedFault.errorCode, message: InjectedFault.errorMessage))]
            case .silence, .dropTurnEnd, .slowAudio, .audioGap, .refuse, .slowReady:
                break
            }
        }
        guard speaks else { return actions + finalTranscript() }
        let clip: Clip = fault == .silence ? .silence : .reply
        var pace = Pace(speed: configuration.replySpeed)
        if case .slowAudio(let rate)? = fault { pace.speed = rate }
        if case .audioGap(let ms)? = fault {
            pace.gapBeforeChunk = (chunkCounts[clip] ?? 0) / 2
            pace.gapUs = Int64(ms) * 1_000
        }
        return actions + startSpeaking(clip, at: now, latencyMs: latencyMs, announcesEnd: fault != .dropTurnEnd, pace: pace)
    }

    /// The session stops doing anything: no reply, reaction or partial transcript is pending.
    private mutating func endSession(at now: MonotonicInstant) -> [Action] {
        phase = .ended
        reply = nil
        pendingBargeIn = nil
        userTranscriptScheduled = false
        return stopSpeaking(at: now)
    }

    /// Counts a fault performed.
    mutating func count(_ fault: InjectedFault) {
        statistics.faultsInjected[fault.countKey, default: 0] += 1
    }
}
