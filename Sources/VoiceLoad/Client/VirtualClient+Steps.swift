import WSCore

/// The scenario steps (docs/scenarios.md): each runs on the client's loop and suspends in
/// `wait` until what it needs has happened.
extension VirtualClient {
    func run(_ steps: [ScenarioStep]) async throws {
        for step in steps {
            try attempt.checkStepMayStart()
            try await execute(step)
        }
    }

    private func execute(_ step: ScenarioStep) async throws {
        switch step {
        case .connect(let timeoutMs):
            try await connect(timeoutMs: timeoutMs)
        case .wait(let wait):
            try await execute(wait, name: step.name)
        case .say(let say):
            try await speak(say)
        case .pause(let pause):
            let durationMs = pause.minMs == pause.maxMs ? pause.minMs : Int.random(in: pause.minMs...pause.maxMs, using: &random)
            openMicrophone()  // the caller is silent, not gone: paced silence keeps flowing
            let until = MonotonicInstant.now().advanced(byMilliseconds: Int64(durationMs))
            try await waitStep(for: .until(until), step: step.name, timeoutMs: durationMs + 10_000)
        case .bargeIn(let bargeIn):
            try await execute(bargeIn)
        case .toolReply(let toolReply):
            try await execute(toolReply)
        case .repeatSteps(let times, let steps):
            for _ in 0..<times { try await run(steps) }
        case .hangup(let timeoutMs):
            try await hangUp(timeoutMs: timeoutMs)
        case .dtmf(let digits, let intervalMs):
            try await pressKeys(digits, intervalMs: intervalMs)
        case .finalize(let timeoutMs, let onTimeout):
            try await finalize(timeoutMs: timeoutMs, onTimeout: onTimeout)
        }
    }

    private func execute(_ wait: WaitStep, name: String) async throws {
        let condition = attempt.condition(for: wait.target, graceMs: plan.scenario.quietMs, at: .now())
        let met = try await waitStep(for: condition, step: name, timeoutMs: wait.timeoutMs, onTimeout: wait.onTimeout)
        if !met { perform(attempt.waitGaveUp(on: wait.target)) }
    }

    /// Starts speaking `say` at the next frame slot and returns when the clip has been sent.
    private func speak(_ say: SayStep, bargeIn: BargeInStep? = nil) async throws {
        guard let frames = plan.frameSets[say.audioKey] else {
            throw SessionFailure(.generatorError, .text("no prepared audio for \(say.audioPath)"))
        }
        let micOpenAt = openMicrophone(speaking: frames)
        let boundaries = frames.utterance.boundaries
        let label = say.label ?? bargeIn?.label ?? attempt.nextUtteranceLabel("turn")
        perform(
            attempt.utteranceStarted(
                label: label,
                micOpenAt: micOpenAt,
                speechStartUs: boundaries.speechStartUs,
                speechEndUs: boundaries.speechEndUs,
                bargeInTimeoutMs: bargeIn?.intTimeoutMs
            )
        )
        let clipMs = frames.frames.count * frames.frameMs
        try await waitStep(for: .clipSent, step: bargeIn == nil ? "say" : "barge_in", timeoutMs: clipMs + 10_000)
        // Dialects where the client ends its turns (OpenAI manual turns) commit it now.
        perform(attempt.clipSent(connected: connection != nil, at: .now()))
    }

    /// Waits until the caller has heard `after_heard_ms` of the agent's turn, then talks over
    /// it, or sends the interrupt command and waits for its row to be complete.
    private func execute(_ bargeIn: BargeInStep) async throws {
        let heard = try await waitStep(
            for: .heard(targetUs: Int64(bargeIn.afterHeardMs) * 1_000),
            step: "barge_in",
            timeoutMs: bargeIn.timeoutMs,
            onTimeout: bargeIn.onTimeout
        )
        guard heard else { return }
        switch bargeIn.action {
        case .speech(let say):
            try await speak(say, bargeIn: bargeIn)
        case .command:
            // Playback stops (and OpenAI's item is truncated) when the server acknowledges.
            let label = bargeIn.label ?? attempt.nextUtteranceLabel("barge_in")
            perform(attempt.interruptCommandSent(label: label, at: .now(), intTimeoutMs: bargeIn.intTimeoutMs))
            // Settles by itself at the deadline at the latest; the bound is only a safety net.
            try? await wait(for: .commandInterruptionSettled, step: "barge_in", timeoutMs: bargeIn.intTimeoutMs + 60_000)
            perform(attempt.commandInterruptionFinished())
        }
    }

    /// Answers the agent's next tool call with the scenario's canned output for its name.
    private func execute(_ toolReply: ToolReplyStep) async throws {
        let called = try await waitStep(
            for: .toolCallPending,
            step: "tool_reply",
            timeoutMs: toolReply.timeoutMs,
            onTimeout: toolReply.onTimeout
        )
        guard called else { return }
        let call = attempt.takeToolCall()
        guard let output = toolReply.output(for: call.name) else {
            let failure = SessionFailure(
                .toolReplyMissing,
                .text("the agent called '\(call.name)', and the tool_reply step has no output for it")
            )
            fail(failure)
            throw failure
        }
        if toolReply.delayMs > 0 {
            let until = MonotonicInstant.now().advanced(byMilliseconds: Int64(toolReply.delayMs))
            try await waitStep(for: .until(until), step: "tool_reply", timeoutMs: toolReply.delayMs + 10_000)
        }
        perform(attempt.send(.toolResult(callID: call.id ?? "", name: call.name, output: output)))
        recorder.recordToolResult()
    }
}
