import AgentSimulator
import ArgumentParser
import Foundation
import NIOCore
import NIOPosix
import VoiceLoad

/// Where the sessions go and how they talk to it, shared by `run` and `capacity`: the URL (or
/// the built-in simulator without one), REST step, dialect, token, headers, frame length and TLS.
struct EndpointOptions: ParsableArguments {
    @Option(
        help:
            "Endpoint URL (ws:// or wss://; http(s):// for a WebRTC dialect's signalling). Without it vload runs its built-in agent simulator."
    )
    var url: String?

    @Flag(help: "Start each session with the dialect's REST step (Datagrid POST /v1/voice); an http(s) --url implies it.")
    var rest = false

    @Option(
        help:
            "Wire protocol of the endpoint: a built-in dialect, or a shipped dialect file by name (vload dialects lists both; default: the scenario's, else datagrid)."
    )
    var dialect: String?

    @Option(
        name: .customLong("dialect-file"),
        help: ArgumentHelp(
            "A dialect file (YAML, docs/dialects.md), e.g. dialects/datagrid.yaml. Without --url the built-in simulator speaks --dialect.",
            valueName: "file"
        )
    )
    var dialectFile: String?

    @Option(help: "API key for the endpoint; or set VLOAD_TOKEN. Never printed or saved.")
    var token: String?

    @Option(
        name: .customLong("header"),
        help: ArgumentHelp(
            "Extra HTTP header for the WebSocket upgrade, as 'Name: value' (repeatable). Never printed or saved.",
            valueName: "name: value"
        )
    )
    var headers: [String] = []

    @Option(
        name: .customLong("twilio-auth-token"),
        help: ArgumentHelp(
            "twilio-media-streams: sign each upgrade with X-Twilio-Signature (HMAC-SHA1 of the URL), for servers that check it; or set TWILIO_AUTH_TOKEN. Never printed or saved.",
            valueName: "token"
        )
    )
    var twilioAuthToken: String?

    @Option(name: .customLong("frame-ms"), help: "Length of each audio frame sent, in ms (default: the scenario's, else 40).")
    var frameMs: Int?

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "Trust the CA certificates in this PEM file, in addition to the system's roots (a private CA's wss:// endpoint).",
            valueName: "pem"
        )
    )
    var caFile: String?

    @Flag(help: "Do not verify the server's TLS certificate or host name (said in the summary and report.json).")
    var insecure = false

    @Option(
        name: .customLong("cert"),
        help: ArgumentHelp(
            "Client certificate (PEM chain, leaf first) for servers that ask for one; needs --key.",
            valueName: "pem"
        )
    )
    var certificate: String?

    @Option(help: ArgumentHelp("The unencrypted PEM private key of --cert.", valueName: "pem"))
    var key: String?

    @Option(
        name: .customLong("srtp-profiles"),
        help: ArgumentHelp(
            "WebRTC: the SRTP profiles each call offers in DTLS, most preferred first, comma-separated: SRTP_AEAD_AES_128_GCM, SRTP_AES128_CM_HMAC_SHA1_80 (default: both, GCM first). Where the agent is the DTLS client vload picks from it; report.json's rtp.srtp_profiles counts what was agreed.",
            valueName: "list"
        )
    )
    var srtpProfiles: String?

    /// The TLS settings of the command line.
    var tls: ClientTLSOptions {
        ClientTLSOptions(caFile: caFile, insecure: insecure, certificateFile: certificate, keyFile: key)
    }

    func validate() throws {
        if certificate != nil, key == nil { throw ValidationError("--cert needs --key (the client certificate's private key)") }
        if key != nil, certificate == nil { throw ValidationError("--key needs --cert (the client certificate it belongs to)") }
        for header in headers where Self.parseHeader(header) == nil {
            throw ValidationError("--header '\(header.split(separator: ":").first ?? "")' must look like 'Name: value'")
        }
        if let srtpProfiles {
            do {
                _ = try SRTPProfileList.parse(srtpProfiles)
            } catch {
                throw ValidationError(error.message)
            }
        }
        if rest, let url, !url.lowercased().hasPrefix("http") {
            throw ValidationError("--rest needs an http:// or https:// --url (the REST step's address), got a WebSocket URL")
        }
    }

    /// Rejects `--sim-*` options next to `--url`.
    func check(simulator: SimulatorOptions) throws {
        if url != nil, simulator.isSet { throw ValidationError("--sim-* options apply to the built-in simulator only, not with --url") }
    }

    /// Builds the session plan for `scenario` and runs `body` with it. Without a URL (here or in
    /// the scenario) the built-in simulator is started first, on its own event loop, for the
    /// whole of `body`, and passed to it.
    func withTarget<Result>(
        scenario: Scenario,
        simulator options: SimulatorOptions,
        _ body: (SessionPlan, AgentSimulator?) async throws -> Result
    ) async throws -> Result {
        let dialectID = dialect ?? scenario.dialect ?? "datagrid"
        let resolved = try ResolvedDialect(id: dialectID, file: dialectFile)
        var scenario = scenario
        if resolved.dialect.id == TwilioMediaStreamsClientDialect().id,
            let authToken = twilioAuthToken ?? ProcessInfo.processInfo.environment["TWILIO_AUTH_TOKEN"], !authToken.isEmpty
        {
            scenario.sessionParameters[TwilioMediaStreamsClientDialect.authTokenParameter] = .string(authToken)
        }
        var extras = resolved.extras
        extras.headers = headers.compactMap(Self.parseHeader) + extras.headers
        let token = token ?? ProcessInfo.processInfo.environment["VLOAD_TOKEN"]
        func plan(_ url: String, token: String?) throws(InputError) -> SessionPlan {
            try SessionPlanBuilder.build(
                scenario: scenario,
                dialect: resolved.dialect,
                url: url,
                token: token,
                frameMs: frameMs,
                headers: extras.headers,
                subprotocols: extras.subprotocols,
                tls: tls,
                srtpProfiles: srtpProfiles
            )
        }
        if let endpointURL = url ?? scenario.url {
            try Self.check(tls: tls, url: endpointURL)
            let sessionPlan = try plan(endpointURL, token: token)
            if sessionPlan.tlsInsecure {
                print("warning: --insecure: the server's TLS certificate and host name are not verified")
            }
            return try await body(sessionPlan, nil)
        }
        try Self.check(tls: tls, url: nil)
        // The simulator speaks only the built-in dialects: a dialect file runs against it only
        // when the user names the built-in dialect the file describes.
        if let dialectFile, dialect == nil {
            throw InputError(
                "--dialect-file \(dialectFile) with no --url: the built-in simulator speaks only the built-in dialects; "
                    + "give --url, or --dialect NAME for the one the file describes (vload dialects lists them)"
            )
        }
        guard DialectRegistry.clientIDs.contains(dialectID) else {
            throw InputError(
                "--dialect \(dialectID) is a dialect file (\(resolved.filePath ?? dialectID)) with no --url: the built-in simulator "
                    + "speaks only the built-in dialects; give --url (vload dialects lists them)"
            )
        }
        // No endpoint: the built-in simulator, in-process on event loops of its own, one per
        // core as `vload serve` has, its sessions spread over them: replies that fall due at
        // the same instant are produced side by side, not one after the other, and a large
        // run does not wait on one loop (BENCHMARKS.md, "The built-in simulator at the reply
        // instant").
        let configuration = try options.overriding(scenario: scenario).configuration(dialect: dialectID)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        do {
            // Noisy callers tell the simulator where their noise is heard alone (docs/callers.md).
            let noise = NoiseWindows()
            let agent = try await AgentSimulator.start(configuration: configuration, group: group, noise: noise)
            // A simulator that asks for a key (OpenAI's calls) takes any: the run's, else its own.
            var sessionPlan = try plan(rest ? agent.restURL : agent.url, token: token ?? agent.callerKey)
            sessionPlan.simulatorNoise = noise
            try Self.checkSimulatorSpeaks(sessionPlan.dialect, simulatorDialect: configuration.dialect)
            print(
                "no --url: running against the built-in agent simulator at \(sessionPlan.redactedURL) "
                    + "(simulator dialect \(configuration.dialect), reply latency \(configuration.replyLatency) ms"
                    + (configuration.workers.map { ", \($0) workers" } ?? "")
                    + (configuration.faults.isEmpty ? "" : ", faults \(configuration.faults)") + ")"
            )
            let result = try await body(sessionPlan, agent)
            try? await agent.stop()
            try? await group.shutdownGracefully()
            return result
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// The built-in simulator streams in its dialect's formats; a scenario that asks for others
    /// (OpenAI `audio/pcmu`) would be measured on audio neither side can read: refused.
    static func checkSimulatorSpeaks(_ dialect: any ClientDialect, simulatorDialect id: String) throws(InputError) {
        guard let server = try? DialectRegistry.server(id) else { return }
        guard dialect.inputFormat == server.inputFormat, dialect.outputFormat == server.outputFormat else {
            throw InputError(
                "the built-in simulator speaks \(id) with \(server.inputFormat) in and \(server.outputFormat) out; the run asks for "
                    + "\(dialect.inputFormat) in and \(dialect.outputFormat) out (give --url, or keep the dialect's default formats)"
            )
        }
    }

    /// Rejects TLS options for an endpoint without TLS: a ws:// or http:// URL, or the built-in
    /// simulator (nil), which speaks plain ws.
    static func check(tls: ClientTLSOptions, url: String?) throws(InputError) {
        guard !tls.isDefault else { return }
        let scheme = url?.split(separator: ":").first?.lowercased()
        guard scheme == "wss" || scheme == "https" else {
            throw InputError(
                "--ca-file, --insecure, --cert and --key apply to a wss:// or https:// --url only"
                    + (url == nil ? " (the built-in simulator speaks plain ws://)" : "")
            )
        }
    }

    /// `Name: value` → a header field; nil when there is no name or no colon.
    static func parseHeader(_ text: String) -> HTTPHeaderField? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !name.contains(" ") else { return nil }
        return HTTPHeaderField(name: name, value: value)
    }
}
