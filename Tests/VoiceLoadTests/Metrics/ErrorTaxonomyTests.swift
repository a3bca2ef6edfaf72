import Synchronization
import Testing
import WSCore

@testable import VoiceLoad

@Suite("Error taxonomy: classes, categories and examples")
struct ErrorTaxonomyTests {
    @Test("every class has its report name and category, and the name reads back as the class")
    func namesAndCategories() {
        let expected: [(ErrorClass, String, ErrorCategory)] = [
            (.connectRefused, "connect_refused", .connect), (.dnsFailed, "dns_failed", .dns),
            (.connectFailed, "connect_failed", .connect), (.tlsFailed, "tls_failed", .tls),
            (.tlsUntrustedCertificate, "tls_untrusted_certificate", .tls), (.tlsHostnameMismatch, "tls_hostname_mismatch", .tls),
            (.upgradeRejected(status: 401), "upgrade_rejected_401", .upgrade), (.restRejected(status: 503), "rest_rejected_503", .upgrade),
            (.invalidUpgrade, "invalid_upgrade", .upgrade), (.closedByServer(code: 1011), "closed_by_server_1011", .close),
            (.closedByServer(code: nil), "closed_by_server_no_code", .close), (.connectionLost, "connection_lost", .close),
            (.betaAPIRemoved, "beta_api_removed", .close),
            (.frameTooLarge, "frame_too_large", .protocolViolation), (.inBandError(code: nil), "in_band_error", .inBandError),
            (.inBandError(code: "rate_limited"), "in_band_error_rate_limited", .inBandError),
            (.readyRejected, "ready_rejected", .inBandError), (.timeout(step: "wait_ready"), "timeout_wait_ready", .timeout),
            (.malformedFrame, "malformed_frame", .protocolViolation), (.invalidRESTSetup, "invalid_rest_setup", .protocolViolation),
            (.resultBeforeAudio, "result_before_audio", .protocolViolation), (.missingTurnEnd, "missing_turn_end", .protocolViolation),
            (.silentReply, "silent_reply", .reply), (.toolReplyMissing, "tool_reply_missing", .generator),
            (.generatorError, "generator_error", .generator),
        ]
        for (errorClass, name, category) in expected {
            #expect(errorClass.name == name)
            #expect(errorClass.category == category, "\(name)")
            #expect(ErrorClass(name: name) == errorClass, "\(name)")
            #expect(ErrorCategory(className: name) == category, "\(name)")
        }
        #expect(ErrorCategory(className: "protocol_violation") == .protocolViolation)  // older reports
        #expect(ErrorCategory(className: "no_such_class") == nil)
        #expect(
            ErrorCategory.allCases.map(\.rawValue) == [
                "connect", "dns", "tls", "upgrade", "close", "in_band_error", "timeout", "protocol_violation", "reply", "generator",
            ]
        )
    }

    @Test("OpenAI's close of a beta-interface session is beta_api_removed, says what to change, and is not retried")
    func betaInterfaceRemoved() {
        let failure = SessionFailure.serverClosed(code: 4000, reason: "beta_api_shape_disabled")
        #expect(failure.errorClass == .betaAPIRemoved)
        guard case .text(let line) = failure.evidence else {
            Issue.record("no advice: \(failure.evidence)")
            return
        }
        #expect(line.contains("OpenAI-Beta") && line.contains("--header") && !line.contains("\n") && line.count <= 200)
        #expect(ReconnectPolicy.retries(.betaAPIRemoved) == false)
        // Another 4000, or the reason with another code, is an ordinary close.
        #expect(SessionFailure.serverClosed(code: 4000, reason: "other").errorClass == .closedByServer(code: 4000))
        #expect(SessionFailure.serverClosed(code: 1008, reason: "beta_api_shape_disabled").errorClass == .closedByServer(code: 1008))
        #expect(SessionFailure.serverClosed(code: nil, reason: nil).evidence == .close(code: nil, reason: nil))
    }

    @Test("an in-band code is lowercased, anything but [a-z0-9_] becomes _, at most 40 characters")
    func inBandCodes() {
        #expect(ErrorClass.inBandError(code: "Rate-Limited!").name == "in_band_error_rate_limited_")
        #expect(ErrorClass.inBandError(code: "server.error 42").name == "in_band_error_server_error_42")
        #expect(ErrorClass.inBandError(code: "").name == "in_band_error")
        #expect(ErrorClass.inBandError(code: "é").name == "in_band_error__")  // one character, one _ (not per byte)
        let long = ErrorClass.inBandError(code: String(repeating: "x", count: 60)).name
        #expect(long == "in_band_error_" + String(repeating: "x", count: 40))
    }

    @Test("after 20 distinct in-band codes, further ones count as in_band_error_other; known ones keep their class")
    func inBandCodeCap() {
        let recorder = Recorder()
        for code in 0..<25 {
            recorder.recordError(.inBandError(code: "e\(code)"), client: 0, iteration: 0, detail: .test("e\(code)"))
        }
        #expect(recorder.recordError(.inBandError(code: "E3"), client: 0, iteration: 0, detail: .test("again")) == "in_band_error_e3")
        #expect(recorder.recordError(.inBandError(code: nil), client: 0, iteration: 0, detail: .test("no code")) == "in_band_error")
        let errors = recorder.snapshot().errors
        #expect(errors["in_band_error_other"] == 5)
        #expect(errors["in_band_error_e3"] == 2)
        #expect(errors["in_band_error_e19"] == 1 && errors["in_band_error_e20"] == nil)
        #expect(errors.count == 22)  // 20 codes, other, no code
        #expect(RunReport.Errors.categories(of: recorder.snapshot().errors) == ["in_band_error": 27])
    }

    @Test("the first three of a class keep an example; later details are never built")
    func firstThreeExamples() {
        let start = MonotonicInstant(nanoseconds: 5_000_000_000)
        let recorder = Recorder(startedAt: start)
        let built = Mutex(0)
        func detail(_ index: Int) -> ErrorDetail {
            built.withLock { $0 += 1 }
            return .test("close \(index)")
        }
        for index in 0..<10 {
            recorder.recordError(
                .closedByServer(code: 1011),
                at: start.advanced(byMilliseconds: Int64(1_000 + 250 * index)),
                client: index,
                iteration: 7,
                detail: detail(index)
            )
        }
        recorder.recordError(.silentReply, at: start.advanced(byMilliseconds: 2_345), client: 4, iteration: 0, detail: .test("greeting"))
        #expect(built.withLock { $0 } == 3)
        let snapshot = recorder.snapshot()
        #expect(snapshot.errors == ["closed_by_server_1011": 10, "silent_reply": 1])
        #expect(RunReport.Errors.categories(of: snapshot.errors) == ["close": 10, "reply": 1])
        #expect(
            snapshot.errorExamples["closed_by_server_1011"] == [
                ErrorExample(tS: 1, client: 0, iteration: 7, detail: "close 0"),
                ErrorExample(tS: 1.25, client: 1, iteration: 7, detail: "close 1"),
                ErrorExample(tS: 1.5, client: 2, iteration: 7, detail: "close 2"),
            ]
        )
        #expect(snapshot.errorExamples["silent_reply"] == [ErrorExample(tS: 2.345, client: 4, iteration: 0, detail: "greeting")])
    }

    @Test("the report carries totals, categories and examples")
    func reportErrors() throws {
        let report = ReportFixtures.richReport()
        #expect(report.errors.total == 1)
        #expect(report.errors.byClass == ["closed_by_server_1011": 1])
        #expect(report.errors.byCategory == ["close": 1])
        let example = try #require(report.errors.examples["closed_by_server_1011"]?.first)
        #expect(example == ErrorExample(tS: 3.9, client: 2, iteration: 0, detail: "close 1011: internal <error> for ***"))
    }

    @Test("grouped: categories in taxonomy order, classes by name, unknown names last as other")
    func grouped() {
        let errors = RunReport.Errors(
            byClass: ["timeout_wait_ready": 2, "upgrade_rejected_503": 1, "upgrade_rejected_401": 4, "mystery": 1],
            examples: [:]
        )
        let groups = errors.grouped
        #expect(groups.map(\.category) == ["upgrade", "timeout", "other"])
        #expect(groups.map(\.count) == [5, 2, 1])
        #expect(groups[0].classes.map(\.name) == ["upgrade_rejected_401", "upgrade_rejected_503"])
        #expect(errors.total == 8)
    }
}
