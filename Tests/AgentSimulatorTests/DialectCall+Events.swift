import WSCore

@testable import AgentSimulator
@testable import VoiceLoad

/// What the call's events do: timers, frames each way, the microphone's due frames, and the
/// actions of both sides, carried out as `VirtualClient` and `SimulatorConnection` do.
extension DialectCall {

    mutating func handle(_ event: Event) {
        switch event {
        case .clientTimer(let timer, let generation):
            guard clientTimers[timer] == generation else { return }
            clientTimers[timer] = nil
            perform(attempt.timerFired(timer, at: now))
        case .serverTimer(let timer, let generation):
            guard serverOpen, serverTimers[timer] == generation else { return }
            serverTimers[timer] = nil
            performAgent(agent.timerFired(timer, at: now))
        case .microphoneDue(let token):
            guard token == pacingToken else { return }
            sendDueFrames()
        case .serverOpened:
            serverOpen = true
            // The upgrade's answer leaves first; what the server sends on open follows it.
            clock.schedule(.clientOpened, at: now.advanced(byMicroseconds: oneWayDelayUs))
            performAgent(agent.opened(at: now))
        case .clientOpened:
            clientConnectionOpen = true
            perform(attempt.connectionOpened(at: now, now: now))
            suspension = nil
            runSteps()
        case .toServer(let frame):
            guard serverOpen else { return }
            let intents: [ClientIntent]
            do {
                intents = try serverCodec.receive(frame)
            } catch {
                serverDecodeErrors.append(error)
                return
            }
            for acknowledgement in serverCodec.takeAcknowledgements() { sendToClient(acknowledgement) }
            for intent in intents {
                if case .audio(let bytes) = intent { audioBytesReceived.append(bytes.count) }
                if case .markPlayed(let name) = intent { marksPlayed.append(name) }
                performAgent(agent.receive(intent, at: now))
            }
        case .toClient(let frame):
            guard clientConnectionOpen || suspension == .connecting else { return }  // held until the open
            perform(attempt.frameArrived(frame, at: now, now: now))
        case .serverSawClose:
            serverOpen = false
            serverTimers.removeAll()
        case .clientSawClose(let code):
            guard clientConnectionOpen else { return }
            clientConnectionOpen = false
            let failure = SessionFailure(.closedByServer(code: code), .close(code: code, reason: ""))
            perform(attempt.connectionEnded(failure, at: now, now: now))
        }
    }

    mutating func sendToServer(_ frame: WireFrame) {
        guard clientConnectionOpen else { return }
        framesToServer.append(frame)
        clock.schedule(.toServer(frame), at: now.advanced(byMicroseconds: oneWayDelayUs))
    }

    mutating func sendToClient(_ frame: WireFrame) {
        framesToClient.append(frame)
        clock.schedule(.toClient(frame), at: now.advanced(byMicroseconds: oneWayDelayUs))
    }

    /// The caller's actions, as `VirtualClient.perform` carries them out.
    mutating func perform(_ actions: [CallAttempt.Action]) {
        for action in actions {
            switch action {
            case .schedule(let timer, let at):
                timerGeneration += 1
                clientTimers[timer] = timerGeneration
                clock.schedule(.clientTimer(timer, generation: timerGeneration), at: at)
            case .cancel(let timer):
                clientTimers[timer] = nil
            case .endStep(let end):
                if suspension != nil, pendingStepEnd == nil { pendingStepEnd = end }
            case .stopMicrophone:
                pacingToken += 1
            case .sendFrame(let frame):
                sendToServer(frame)
            case .abandonConnect:
                break  // the harness never winds down
            case .emit(let turn):
                turns.append(turn)
                session.turns += 1
                recorder.recordTurn(turn, at: now)
            case .recordError(let errorClass, let evidence, _):
                errors.append((errorClass, evidence))
            case .record(let figure):
                switch figure {
                case .metric(let metric, let microseconds): recorder.record(metric, microseconds: microseconds)
                case .toolCall: break
                case .warning(let code): warnings.append(code)
                case .unknownEvent(let type, _): unknownEventTypes.append(type)
                }
            case .ready:
                break  // `attempt.readyAt` holds it
            }
        }
    }

    /// The agent's actions, as `SimulatorConnection.perform` carries them out.
    mutating func performAgent(_ actions: [SimulatorSession.Action]) {
        for action in actions {
            guard serverOpen else { return }
            switch action {
            case .send(let output):
                if case .interrupted = output { agentInterruptedAt.append(now) }
                if case .toolCall = output { toolCallsSentAt.append(now) }
                for frame in serverCodec.frames(for: output) { sendToClient(frame) }
            case .sendChunk(let clip, let index):
                if clip == .reply { replyChunksSentAt.append(now) }
                if let prepared = audio.chunks[clip]?[index] { sendToClient(Self.wireFrame(serverCodec.audioFrame(prepared))) }
            case .schedule(let timer, let at):
                timerGeneration += 1
                serverTimers[timer] = timerGeneration
                clock.schedule(.serverTimer(timer, generation: timerGeneration), at: at)
            case .cancel(let timer):
                serverTimers[timer] = nil
            case .close(let code):
                serverOpen = false
                serverTimers.removeAll()
                clock.schedule(.clientSawClose(code: code), at: now.advanced(byMicroseconds: oneWayDelayUs))
            case .sendInvalid:
                serverDecodeErrors.append(.malformed("the harness injects no faults"))
            case .sendIdleSilence:
                serverDecodeErrors.append(.malformed("the harness's calls are WebSocket calls: no media starts"))
            }
        }
    }
}
