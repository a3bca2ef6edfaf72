import VoiceLoad
import WSCore

extension Fuzzing {
    /// What reads a REST pre-step body, chosen by the payload's first byte.
    enum RESTReader: Int, CaseIterable {
        /// `DatagridClientDialect.restSetup(from:request:)`: the answer to `POST /v1/voice`.
        case datagridAnswer
        /// The REST fuzz dialect's `restSetup(from:request:)`, then its opening frames.
        case customAnswer
        /// The simulator's `DatagridServerDialect.restSessionResponse`: the request body.
        case datagridRequest
    }

    /// The REST answer target. Checks: a setup names a WebSocket URL; its opening frames (sent
    /// verbatim, or rendered from captured values) are JSON; the simulator answers any JSON
    /// request with JSON that the client side reads as a setup.
    static func restAnswerReading(_ payload: [UInt8]) -> FuzzOutcome {
        guard let first = payload.first else { return FuzzOutcome(accepted: false) }
        let body = Array(payload.dropFirst())
        var outcome = FuzzOutcome()
        switch RESTReader.allCases[Int(first) % RESTReader.allCases.count] {
        case .datagridAnswer:
            let dialect = DatagridClientDialect()
            guard let request = dialect.restSetupRequest(parameters: trickyObject, token: "key"),
                let setup = dialect.restSetup(from: body, request: request)
            else { return FuzzOutcome(accepted: false) }
            outcome.check(!setup.webSocketURL.isEmpty, "datagrid REST setup without a URL")
            outcome.violations += jsonViolations(setup.openingFrames ?? [], what: "datagrid REST opening frame")
        case .customAnswer:
            let dialect = FuzzDialects.rest
            guard let request = dialect.restSetupRequest(parameters: [:], token: nil),
                let setup = dialect.restSetup(from: body, request: request)
            else { return FuzzOutcome(accepted: false) }
            outcome.check(!setup.webSocketURL.isEmpty, "custom REST setup without a URL")
            var codec = makeCodec(dialect)
            codec.adoptRESTSetup(setup)
            outcome.violations += jsonViolations(codec.framesOnOpen(), what: "custom opening frame after REST")
        case .datagridRequest:
            guard let response = DatagridServerDialect().restSessionResponse(requestBody: body, webSocketURL: "ws://127.0.0.1:9/ws")
            else { return FuzzOutcome(accepted: false) }
            let dialect = DatagridClientDialect()
            let request = dialect.restSetupRequest(parameters: [:], token: nil)
            outcome.check(
                request.flatMap { dialect.restSetup(from: response, request: $0) } != nil,
                "the simulator's REST answer is not one the client reads: \(String(decoding: response.prefix(200), as: UTF8.self))"
            )
        }
        return outcome
    }

    /// The frames of `frames` that are not JSON text.
    static func jsonViolations(_ frames: [WireFrame], what: String) -> [String] {
        frames.compactMap { frame in
            switch frame {
            case .text(let text): return isJSON(text) ? nil : "\(what) is not JSON: \(describe(frame))"
            case .binary: return "\(what) is binary"
            }
        }
    }
}
