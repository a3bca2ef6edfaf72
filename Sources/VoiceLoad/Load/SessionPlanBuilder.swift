import NIOSSL
import WSClient
import WebRTC

/// Turns a scenario and the command line's overrides into the shared `SessionPlan` of a run:
/// resolves the dialect and endpoint, adds credentials, builds the TLS configuration (and its
/// context) once, and decodes, resamples and encodes every clip once.
package enum SessionPlanBuilder {
    /// `--srtp-profiles` given for a dialect that makes no WebRTC call.
    static func srtpProfilesNeedWebRTC(_ dialect: any ClientDialect) -> InputError {
        InputError("--srtp-profiles applies to a WebRTC dialect's calls (pipecat-webrtc, openai-realtime-webrtc), not to \(dialect.id)'s")
    }

    package static func build(
        scenario originalScenario: Scenario,
        dialect unconfigured: any ClientDialect,
        url: String,
        token: String?,
        frameMs: Int?,
        headers extraHeaders: [HTTPHeaderField] = [],
        subprotocols extraSubprotocols: [String] = [],
        tls: ClientTLSOptions = ClientTLSOptions(),
        srtpProfiles srtpProfileList: String? = nil
    ) throws(InputError) -> SessionPlan {
        let srtpProfiles = try srtpProfileList.map { text throws(InputError) in try SRTPProfileList.parse(text) }
        let tlsConfiguration = try tls.configuration()
        var scenario = originalScenario
        var dialect = try unconfigured.configured(parameters: scenario.sessionParameters, url: url)
        let midStream = ScenarioStep.flattened(scenario.steps).reduce(into: [String: JSONValue]()) { settings, step in
            if case .configure(let parameters) = step { settings.merge(parameters) { _, later in later } }
        }
        if !midStream.isEmpty { dialect = dialect.reconfigured(midStream: midStream) }
        if var target = try dialect.connectionTarget(url: url, parameters: scenario.sessionParameters, token: token) {
            if let srtpProfiles {
                guard case .webRTC(let call) = target else { throw Self.srtpProfilesNeedWebRTC(dialect) }
                target = .webRTC(try call.offering(srtpProfiles: srtpProfiles, dialect: dialect.id))
            }
            return try plan(
                scenario: scenario,
                dialect: dialect,
                target: target,
                headers: extraHeaders,
                subprotocols: extraSubprotocols,
                frameMs: frameMs,
                tlsConfiguration: tlsConfiguration
            )
        }
        guard srtpProfiles == nil else { throw Self.srtpProfilesNeedWebRTC(dialect) }
        if let restEndpoint = HTTPEndpoint(parsing: url) {
            // The REST step carries the credentials; its answer names the WebSocket.
            guard let request = dialect.restSetupRequest(parameters: scenario.sessionParameters, token: token) else {
                throw InputError("dialect '\(dialect.id)' has no REST pre-step: give a ws:// or wss:// URL (got \(restEndpoint))")
            }
            return try plan(
                scenario: scenario,
                dialect: dialect,
                target: .rest(restEndpoint, request),
                headers: extraHeaders,
                subprotocols: [],
                frameMs: frameMs,
                tlsConfiguration: tlsConfiguration
            )
        }
        var endpoint: WebSocketEndpoint
        do {
            endpoint = try WebSocketEndpoint(parsing: url)
        } catch {
            throw InputError(error.description)
        }
        var headers = extraHeaders
        var subprotocols = extraSubprotocols
        if let token, !token.isEmpty {
            switch dialect.authentication {
            case .queryParameter(let name):
                endpoint = endpoint.addingQueryItem(name: name, value: token)
            case .header(let name, let prefix):
                headers.append(HTTPHeaderField(name: name, value: prefix + token))
            case .subprotocol(let marker):
                subprotocols += [marker, token]
            case .sessionParameter(let name):
                scenario.sessionParameters[name] = .string(token)
            case .none:
                break
            }
        }
        return try plan(
            scenario: scenario,
            dialect: dialect,
            target: .webSocket(endpoint),
            headers: headers,
            subprotocols: subprotocols,
            frameMs: frameMs,
            tlsConfiguration: tlsConfiguration
        )
    }

    /// Prepares the audio of every `say` once and assembles the plan.
    private static func plan(
        scenario: Scenario,
        dialect: any ClientDialect,
        target: ConnectionTarget,
        headers: [HTTPHeaderField],
        subprotocols: [String],
        frameMs: Int?,
        tlsConfiguration: TLSConfiguration?
    ) throws(InputError) -> SessionPlan {
        let commands = ScenarioStep.flattened(scenario.steps).contains {
            if case .bargeIn(let bargeIn) = $0 { return bargeIn.action == .command }
            return false
        }
        var codec = dialect.makeCodec(parameters: scenario.sessionParameters)
        if commands, codec.frames(for: .interrupt).isEmpty {
            throw InputError(
                "\(scenario.sourcePath): 'barge_in: command' sends the dialect's interrupt message, and '\(dialect.id)' has none (barge in with a WAV instead)"
            )
        }
        let stepNames = Set(ScenarioStep.flattened(scenario.steps).map(\.name))
        if stepNames.contains("dtmf"), codec.frames(for: .dtmf(digit: "1")).isEmpty {
            throw InputError(
                "\(scenario.sourcePath): 'dtmf' sends the dialect's keypad message, and '\(dialect.id)' has none (twilio-media-streams has)"
            )
        }
        if stepNames.contains("configure"), codec.frames(for: .configure(parameters: ["_": .null])).isEmpty {
            throw InputError(
                "\(scenario.sourcePath): 'configure' sends new settings mid-stream, and '\(dialect.id)' has no message for that (deepgram-flux and assemblyai-v3 have)"
            )
        }
        if stepNames.contains("finalize"), !dialect.reportsFinalizedResults {
            throw InputError(
                "\(scenario.sourcePath): 'finalize' asks the server to flush its transcript, and '\(dialect.id)' cannot (deepgram-stt and deepgram-flux can)"
            )
        }
        let frameMs = frameMs ?? scenario.frameMs ?? dialect.defaultFrameMs
        guard (5...1_000).contains(frameMs) else {
            throw InputError("frame length \(frameMs) ms is out of range (5–1000 ms)")
        }
        if let requiredMs = dialect.requiredFrameMs, frameMs != requiredMs {
            throw InputError("\(dialect.id) sends \(requiredMs) ms frames: --frame-ms and the scenario's frame_ms must be \(requiredMs), not \(frameMs)")
        }
        var frameSets: [String: FrameSet] = [:]
        for say in scenario.distinctSaySteps {
            let utterance: PreparedUtterance
            do {
                utterance = try PreparedUtterance.prepare(
                    path: say.audioPath,
                    format: dialect.inputFormat,
                    frameMs: frameMs,
                    overrides: (startMs: say.speechStartMs, endMs: say.speechEndMs)
                )
            } catch {
                throw InputError("\(scenario.sourcePath): \(error)")
            }
            frameSets[say.audioKey] = FrameSet(utterance: utterance, dialect: dialect)
        }
        var plan = SessionPlan(
            scenario: scenario,
            target: target,
            headers: headers,
            subprotocols: subprotocols,
            dialect: dialect,
            tlsConfiguration: tlsConfiguration,
            frameSets: frameSets,
            silenceFrame: dialect.silenceFrame(frameMs: frameMs),
            frameMs: frameMs
        )
        if let callers = scenario.callers, callers.variesCallers {
            do {
                plan.callerAudio = try CallerAudio.prepare(
                    variation: callers,
                    says: scenario.distinctSaySteps,
                    dialect: dialect,
                    frameMs: frameMs
                )
            } catch {
                throw InputError("\(scenario.sourcePath): callers: \(error)")
            }
        }
        return plan
    }
}
