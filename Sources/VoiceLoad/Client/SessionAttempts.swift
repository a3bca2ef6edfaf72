/// The call attempts of one session (one call, a row of sessions.csv) under the scenario's
/// reconnect policy (`reconnect:`): the reconnects made so far and the utterances of the
/// earlier attempts (turns are numbered on across them). Each `CallAttempt` holds it and
/// hands it to the next one.
struct SessionAttempts: Sendable, Hashable {
    /// The scenario's policy; nil: a failure always stands.
    let policy: ReconnectPolicy?
    private(set) var reconnectsMade = 0
    /// Utterances started by the session's earlier attempts: the turn numbers they took.
    private(set) var utterancesBefore = 0

    init(policy: ReconnectPolicy?) {
        self.policy = policy
    }

    /// The attempt's number, 1 for the session's first.
    var number: Int { reconnectsMade + 1 }

    /// What follows a failure of class `errorClass`: a reconnect after its backoff (`backoffMs`,
    /// doubled for each next reconnect, capped at `maxBackoffMs`), or the failure stands:
    /// without a policy, for a class never retried, while the run winds down, or (`exhausted`)
    /// when the attempts are spent.
    func decision(after errorClass: ErrorClass, windingDown: Bool) -> ReconnectPolicy.Decision {
        guard let policy else { return .giveUp(exhausted: false) }
        return policy.decision(after: errorClass, reconnectsMade: reconnectsMade, windingDown: windingDown)
    }

    /// The attempts once a reconnect follows an attempt that started `utterances`.
    func next(afterUtterances utterances: Int) -> SessionAttempts {
        var next = self
        next.reconnectsMade += 1
        next.utterancesBefore += utterances
        return next
    }
}
