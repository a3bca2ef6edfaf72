import WSCore

/// The scenario steps (docs/scenarios.md): each runs on the client's loop and suspends in
/// `wait` until what it needs has happened.
///
/// A suspended async function keeps its frame in its task's memory for as long as it waits, and
/// the frame holds every value the function (with what the compiler inlined into it) builds,
/// whether or not it lives across a suspension: speaking a clip held about 6 KB, and a caller
/// waiting in a step 20 KB and more of such frames. So the async functions here only sequence
/// and await; what they compute is in synchronous methods kept out of line (`@inline(never)`),
/// whose values live on the thread's stack for the moment they run (BENCHMARKS.md, "Memory per
/// session"; `bench/valgrind/async_frames.py` lists the frames' sizes).
extension VirtualClient {
    @inline(never)
    func run(_ steps: [ScenarioStep]) async throws {
        for index in steps.indices {
            try checkStepMayStart()
            try await execute(steps[index])
        }
    }

    /// Calling a method of the attempt copies it (1.4 KB) when the caller is an async function.
    @inline(never)
    private func checkStepMayStart() throws {
        try attempt.checkStepMayStart()
    }

    @inline(never)
    private func execute(_ step: ScenarioStep) async throws {
        switch step {
        case .connect(let timeoutMs):
            try await connect(timeoutMs: timeoutMs)
        case .wait(let wait):
            try await execute(wait, name: step.name)
        case .say(let say):
            try await speak(say)
        case .pause(let pause):
            let (until, durationMs) = startPause(pause)
            try await waitStep(for: .until(until), step: step.name, timeoutMs: durationMs + 10_000)
        case .bargeIn(let bargeIn):
            try await execute(bargeIn)
        case .backchannel(let backchannel):
            try await execute(backchannel)
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
        case .configure(let parameters):
            guard connection != nil else { return }
            perform(attempt.send(.configure(parameters: parameters)))
        }
    }

    /// The pause's length drawn, and the microphone open: the caller is silent, not gone, so
    /// paced silence keeps flowing. Returns when the pause ends.
    @inline(never)
    private func startPause(_ pause: PauseStep) -> (until: MonotonicInstant, durationMs: Int) {
        let durationMs = pause.minMs == pause.maxMs ? pause.minMs : Int.random(in: pause.minMs...pause.maxMs, using: &random)
        openMicrophone()
        return (MonotonicInstant.now().advanced(byMilliseconds: Int64(durationMs)), durationMs)
    }

    @inline(never)
    private func execute(_ wait: WaitStep, name: String) async throws {
        let condition = waitCondition(for: wait)
        let met = try await waitStep(for: condition, step: name, timeoutMs: wait.timeoutMs, onTimeout: wait.onTimeout)
        if !met { gaveUp(on: wait) }
    }

    @inline(never)
    private func waitCondition(for wait: WaitStep) -> WaitCondition {
        attempt.condition(for: wait.target, graceMs: plan.scenario.quietMs, at: .now())
    }

    @inline(never)
    private func gaveUp(on wait: WaitStep) {
        perform(attempt.waitGaveUp(on: wait.target))
    }

    /// Starts speaking `say` at the next frame slot and returns when the clip has been sent.
    @inline(never)
    private func speak(_ say: SayStep, bargeIn: BargeInStep? = nil) async throws {
        let clipMs = try startSpeaking(say, bargeIn: bargeIn)
        try await waitStep(for: .clipSent, step: bargeIn == nil ? "say" : "barge_in", timeoutMs: clipMs + 10_000)
        clipSent()
    }

    /// Opens the microphone on `say`'s clip and starts its utterance; returns the clip's length.
    @inline(never)
    private func startSpeaking(_ say: SayStep, bargeIn: BargeInStep?) throws -> Int {
        guard let frames = frameSets[say.audioKey] else {
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
        return frames.frames.count * frames.frameMs
    }

    /// The clip has been sent: dialects where the client ends its turns (OpenAI manual turns)
    /// commit it now.
    @inline(never)
    private func clipSent() {
        perform(attempt.clipSent(connected: connection != nil, at: .now()))
    }

    /// Waits until the caller has heard `after_heard_ms` of the agent's turn, then talks over
    /// it, or sends the interrupt command and waits for its row to be complete.
    @inline(never)
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
            sendInterruptCommand(bargeIn)
            // Settles by itself at the deadline at the latest; the bound is only a safety net.
            try? await wait(for: .commandInterruptionSettled, step: "barge_in", timeoutMs: bargeIn.intTimeoutMs + 60_000)
            commandInterruptionFinished()
        }
    }

    /// Playback stops (and OpenAI's item is truncated) when the server acknowledges.
    @inline(never)
    private func sendInterruptCommand(_ bargeIn: BargeInStep) {
        let label = bargeIn.label ?? attempt.nextUtteranceLabel("barge_in")
        perform(attempt.interruptCommandSent(label: label, at: .now(), intTimeoutMs: bargeIn.intTimeoutMs))
    }

    @inline(never)
    private func commandInterruptionFinished() {
        perform(attempt.commandInterruptionFinished())
    }

    /// Answers the agent's next tool call with the scenario's canned output for its name.
    @inline(never)
    private func execute(_ toolReply: ToolReplyStep) async throws {
        let called = try await waitStep(
            for: .toolCallPending,
            step: "tool_reply",
            timeoutMs: toolReply.timeoutMs,
            onTimeout: toolReply.onTimeout
        )
        guard called else { return }
        let result = try toolResult(for: toolReply)
        if toolReply.delayMs > 0 {
            let until = MonotonicInstant.now().advanced(byMilliseconds: Int64(toolReply.delayMs))
            try await waitStep(for: .until(until), step: "tool_reply", timeoutMs: toolReply.delayMs + 10_000)
        }
        send(result)
    }

    /// The answer to the agent's oldest pending tool call, or the failure of a step that has
    /// no output for its name.
    @inline(never)
    private func toolResult(for toolReply: ToolReplyStep) throws -> ClientIntent {
        let call = attempt.takeToolCall()
        guard let output = toolReply.output(for: call.name) else {
            let failure = SessionFailure(
                .toolReplyMissing,
                .text("the agent called '\(call.name)', and the tool_reply step has no output for it")
            )
            fail(failure)
            throw failure
        }
        return .toolResult(callID: call.id ?? "", name: call.name, output: output)
    }

    @inline(never)
    private func send(_ result: ClientIntent) {
        perform(attempt.send(result))
        recorder.recordToolResult()
    }
}
