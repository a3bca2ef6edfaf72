/// Consent freshness (RFC 7675): once a pair is selected, vload goes on checking it, as a
/// browser does, so a call whose peer has gone away ends instead of streaming into nothing.
/// A consent check is a binding request on the selected pair (no USE-CANDIDATE), sent every
/// `consentIntervalUs` on average, randomized to 0.8–1.2 of it (§5.1) so that thousands of
/// calls do not check in step; consent lasts `consentTimeoutUs` (30 s) from the last
/// authentic success, and then the call fails: "ICE consent expired".
struct ConsentFreshness: Sendable, Hashable {
    /// When a success last verified consent (the pair's selection counts as one).
    var verifiedUs: UInt64
    var nextCheckUs: UInt64
    /// The transactions of the checks still unanswered; a success to any of them verifies.
    var pending: [STUNTransactionID] = []
}

extension ICEAgent {
    /// The consent checks sent and the successes that answered them.
    package var consentChecksSent: Int { consentCounts.sent }
    package var consentChecksAnswered: Int { consentCounts.answered }

    /// Starts consent freshness on the pair just selected at `nowUs`.
    mutating func startConsent(nowUs: UInt64) {
        consent = ConsentFreshness(verifiedUs: nowUs, nextCheckUs: nowUs + nextConsentIntervalUs())
    }

    /// The next check or the expiry, whichever comes first; nil when consent is not kept.
    var consentDeadlineUs: UInt64? {
        guard let consent else { return nil }
        return min(consent.nextCheckUs, consent.verifiedUs + configuration.consentTimeoutUs)
    }

    /// Sends the check that is due, or fails when consent has expired.
    mutating func consentTimerFired(nowUs: UInt64) -> [ICEAction] {
        guard var consent, case .selected(let remote, _) = state else { return [] }
        if nowUs >= consent.verifiedUs + configuration.consentTimeoutUs {
            self.consent = nil
            return fail(.consentExpired(afterMs: Double(nowUs - consent.verifiedUs) / 1_000))
        }
        guard nowUs >= consent.nextCheckUs else { return [] }
        let (transactionID, request) = bindingRequest(nominating: false)
        // Only the latest few can still be answered within the timeout.
        consent.pending = Array((consent.pending + [transactionID]).suffix(8))
        consent.nextCheckUs = nowUs + nextConsentIntervalUs()
        self.consent = consent
        consentCounts.sent += 1
        return [.send(request, to: remote)]
    }

    /// A response on the selected pair: an authentic success to a pending check renews
    /// consent; anything else is dropped (an error, or silence, lets it run out).
    mutating func consentResponse(_ response: STUNMessage, from source: STUNAddress, nowUs: UInt64) -> [ICEAction] {
        guard var consent, case .selected(let remote, _) = state, source == remote,
            response.type == .bindingSuccess,
            let index = consent.pending.firstIndex(of: response.transactionID)
        else { return [] }
        consent.pending.remove(at: index)
        consent.verifiedUs = nowUs
        self.consent = consent
        consentCounts.answered += 1
        return []
    }

    /// 0.8–1.2 × the interval, drawn from the session's tie-breaker and the checks sent so far
    /// (SplitMix64): deterministic per session, spread across sessions.
    private func nextConsentIntervalUs() -> UInt64 {
        var mixed = configuration.tieBreaker &+ UInt64(consentCounts.sent + 1) &* 0x9E37_79B9_7F4A_7C15
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        let fraction = Double(mixed >> 11) / Double(1 << 53)
        return UInt64(Double(configuration.consentIntervalUs) * (0.8 + 0.4 * fraction))
    }
}
