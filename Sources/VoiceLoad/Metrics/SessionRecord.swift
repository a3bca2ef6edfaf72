/// How a session (one iteration of one client) ended.
package enum SessionOutcome: String, Sendable, Hashable, Codable {
    case completed
    case failed
    /// Wound down before its scenario ended: the run was interrupted by a signal, or hit its
    /// drain limit. Reports and sessions.csv call it `interrupted`.
    case woundDown = "interrupted"
}

/// One row of sessions.csv: the session-level metrics of one iteration of one client, in
/// whole microseconds (sessions.csv writes them in milliseconds).
package struct SessionRecord: Sendable, Hashable {
    package var client: Int
    package var iteration: Int
    package var outcome: SessionOutcome
    /// The error class name when the session failed.
    package var errorClass: String?
    package var restSetupUs: Int64?
    package var connectUs: Int64?
    /// `connect_ms` in its phases (dns, tcp, tls, upgrade), when the connect succeeded.
    package var connectPhases: ConnectPhases?
    /// A WebRTC call's connect phases (its last attempt's), when the call opened.
    package var webRTCPhases: WebRTCConnectPhases?
    /// The agent's RTP streams of a WebRTC call, over its attempts (report.json's `rtp`).
    package var rtp: RTPReceiveCounts?
    package var startedUs: Int64?
    package var readyUs: Int64?
    package var sessionSetupTotalUs: Int64?
    /// From when the load model meant the session to start to ready: what a caller waits
    /// when the generator (or an open model's backlog) starts the session late.
    package var readyFromScheduledUs: Int64?
    package var greetingUs: Int64?
    package var turns: Int
    /// Times the scenario ran: 1, plus one per reconnect (`reconnect:`).
    package var attempts = 1
    /// Failed on its last attempt with reconnects spent (not a CSV column).
    package var reconnectsExhausted = false
    /// The last attempt's backchannels and how many stopped the agent (`false_barge_in_rate`).
    package var backchannels = Backchannels.Count()
    /// The caller's voice (`callers:`): its draws are sessions.csv's last columns.
    package var voice: CallerVoice?

    package init(client: Int, iteration: Int) {
        self.client = client
        self.iteration = iteration
        self.outcome = .completed
        self.turns = 0
    }
}
