import WSCore

@testable import AgentSimulator
@testable import VoiceLoad

/// The scenario's steps, played as `VirtualClient+Steps` plays them: connect → frames on open;
/// `wait` → the caller's condition; `say` → microphone, utterance, clip sent, the frames after
/// the utterance; `pause` → paced silence; `barge_in` → heard, then speech or the interrupt
/// command and its settling; `tool_reply` → the call, the delay, the result; `hangup` → stop
/// frames, the end-of-session wait, close. Each step that waits is suspended until the caller's
/// `endStep`, and `settle(_:with:)` carries on from there.
extension DialectCall {
    mutating func runSteps() {
        while !finished, suspension == nil {
            guard nextStep < plan.scenario.steps.count else { return finish() }
            if let failure = attempt.failure { return fail(failure) }
            let step = plan.scenario.steps[nextStep]
            nextStep += 1
            switch step {
            case .connect:
                attempt.connectStarted(at: now)
                suspension = .connecting
                clock.schedule(.serverOpened, at: now.advanced(byMicroseconds: oneWayDelayUs))
            case .wait(let wait):
                let condition = attempt.condition(for: wait.target, graceMs: plan.scenario.quietMs, at: now)
                beginWait(condition, step: step.name, timeoutMs: wait.timeoutMs, then: .waiting)
            case .say(let say):
                speak(say)
            case .pause(let pause):
                guard pause.minMs == pause.maxMs else { return fail(HarnessError("the harness plays fixed pauses only")) }
                openMicrophone()  // the caller is silent, not gone: paced silence keeps flowing
                let until = now.advanced(byMilliseconds: Int64(pause.minMs))
                beginWait(.until(until), step: step.name, timeoutMs: pause.minMs + 10_000, then: .waiting)
            case .bargeIn(let bargeIn):
                currentBargeIn = bargeIn
                let heard = WaitCondition.heard(targetUs: Int64(bargeIn.afterHeardMs) * 1_000)
                beginWait(heard, step: "barge_in", timeoutMs: bargeIn.timeoutMs, then: .bargeInHeard)
            case .toolReply(let toolReply):
                currentToolReply = toolReply
                beginWait(.toolCallPending, step: "tool_reply", timeoutMs: toolReply.timeoutMs, then: .toolCalled)
            case .hangup(let timeoutMs):
                let hangUp = attempt.hangUp(connected: clientConnectionOpen)
                perform(hangUp.actions)
                if hangUp.awaitsSessionEnd {
                    beginWait(.sessionEnded, step: "hangup", timeoutMs: timeoutMs, then: .hangingUp)
                } else {
                    closeConnection()
                }
            default:
                return fail(HarnessError("the harness does not play '\(step.name)' steps"))
            }
        }
    }

    /// The step waits for `condition`; when it holds already (or the session has failed) the
    /// step settles at once.
    mutating func beginWait(_ condition: WaitCondition, step: String, timeoutMs: Int, then next: Suspension) {
        let start = attempt.beginWait(for: condition, step: step, timeoutMs: timeoutMs, at: now)
        waitingStep = step
        switch start {
        case .waiting(let actions):
            suspension = next
            perform(actions)
        case .ended(let end):
            settle(next, with: end)
        }
    }

    /// The waiting step was woken: it settles, and the scenario goes on.
    mutating func resume(_ end: CallAttempt.StepEnd) {
        guard let suspended = suspension else { return }
        suspension = nil
        settle(suspended, with: end)
        runSteps()
    }

    /// What follows the end of a step's wait: the step goes on (perhaps to wait again), or the
    /// session fails with the step's timeout or the caller's failure. The hang-up's wait and a
    /// command's settling go on whatever ended them.
    mutating func settle(_ suspended: Suspension, with end: CallAttempt.StepEnd) {
        switch suspended {
        case .hangingUp: return closeConnection()
        case .commandSettling: return perform(attempt.commandInterruptionFinished())
        default: break
        }
        if let error = end.error {
            if let timedOut = error as? StepTimedOut {
                // `waitStep` fails the session with the step's timeout.
                let failure = SessionFailure(.timeout(step: timedOut.step), .text("timed out"))
                perform(attempt.fail(failure))
                return fail(failure)
            }
            return fail(error)
        }
        stepsMetAt[waitingStep] = now
        switch suspended {
        case .speaking: utteranceSent()
        case .bargeInHeard: bargeInHeard()
        case .toolCalled: toolCalled()
        case .toolDelay: sendToolResult()
        case .connecting, .waiting, .commandSettling, .hangingUp: break
        }
    }

    /// Starts speaking `say` at the next frame slot, as a barge-in's speech with `bargeIn`.
    mutating func speak(_ say: SayStep, bargeIn: BargeInStep? = nil) {
        guard let frames = plan.frameSets[say.audioKey] else { return fail(HarnessError("no prepared audio")) }
        let micOpenAt = openMicrophone(speaking: frames)
        let boundaries = frames.utterance.boundaries
        speechStarts.append(micOpenAt.advanced(byMicroseconds: boundaries.speechStartUs))
        speechEnds.append(micOpenAt.advanced(byMicroseconds: boundaries.speechEndUs))
        perform(
            attempt.utteranceStarted(
                label: say.label ?? bargeIn?.label ?? attempt.nextUtteranceLabel("turn"),
                micOpenAt: micOpenAt,
                speechStartUs: boundaries.speechStartUs,
                speechEndUs: boundaries.speechEndUs,
                bargeInTimeoutMs: bargeIn?.intTimeoutMs
            )
        )
        let clipMs = frames.frames.count * frames.frameMs
        beginWait(.clipSent, step: bargeIn == nil ? "say" : "barge_in", timeoutMs: clipMs + 10_000, then: .speaking)
    }

    /// The clip has been sent: dialects where the client ends its turns commit it now.
    mutating func utteranceSent() {
        perform(attempt.clipSent(connected: clientConnectionOpen, at: now))
    }

    /// The caller has heard `after_heard_ms` of the agent's turn: it talks over it, or sends the
    /// interrupt command and waits for the command's row to be complete.
    mutating func bargeInHeard() {
        guard let bargeIn = currentBargeIn else { return }
        switch bargeIn.action {
        case .speech(let say):
            speak(say, bargeIn: bargeIn)
        case .command:
            let label = bargeIn.label ?? attempt.nextUtteranceLabel("barge_in")
            interruptCommandsSentAt.append(now)
            perform(attempt.interruptCommandSent(label: label, at: now, intTimeoutMs: bargeIn.intTimeoutMs))
            beginWait(.commandInterruptionSettled, step: "barge_in", timeoutMs: bargeIn.intTimeoutMs + 60_000, then: .commandSettling)
        }
    }

    /// The agent called a tool: its result is the step's output for the tool's name, sent after
    /// the step's delay.
    mutating func toolCalled() {
        guard let toolReply = currentToolReply else { return }
        let call = attempt.takeToolCall()
        guard let output = toolReply.output(for: call.name) else {
            let failure = SessionFailure(.toolReplyMissing, .text("no output for '\(call.name)'"))
            perform(attempt.fail(failure))
            return fail(failure)
        }
        pendingToolResult = .toolResult(callID: call.id ?? "", name: call.name, output: output)
        guard toolReply.delayMs > 0 else { return sendToolResult() }
        let until = now.advanced(byMilliseconds: Int64(toolReply.delayMs))
        beginWait(.until(until), step: "tool_reply", timeoutMs: toolReply.delayMs + 10_000, then: .toolDelay)
    }

    mutating func sendToolResult() {
        guard let intent = pendingToolResult else { return }
        pendingToolResult = nil
        toolResultsSentAt.append(now)
        perform(attempt.send(intent))
    }
}
