import Foundation
import Synchronization

/// Streams turns.csv and sessions.csv to disk as turns and sessions finish, so a run that
/// is cut short still leaves every finished row behind.
package final class CSVRowWriter: RowSink {
    static let turnColumns =
        ["client", "iteration", "turn", "label", "outcome", "speech_start_offset_ms", "speech_end_offset_ms"]
        + TurnRecord.metricNames.map(\.rawValue) + [
            "barge_in", "missed_interruption", "audio_already_delivered", "stall_count", "reply_rtf", "turn_end_by",
            "backchannels", "backchannels_stopped", "turns_resumed",
        ]
    static let sessionColumns = [
        "client", "iteration", "outcome", "error_class", "rest_setup_ms", "connect_ms", "dns_ms", "tcp_ms", "tls_ms", "upgrade_ms",
        "signalling_ms", "ice_ms", "dtls_ms", "data_channel_open_ms", "started_ms", "ready_ms",
        "session_setup_total_ms", "ready_from_scheduled_ms", "greeting_ms", "backchannel_count", "false_barge_in_rate", "turns", "attempts",
        "packets_received", "packets_expected", "packets_lost", "late_packets", "jitter_ms_max",
        "noise_bed", "snr_db", "noise_offset_ms", "gain_db", "speaking_rate",
    ]

    private let files: Mutex<(turns: FileHandle, sessions: FileHandle)>

    package init(directory: URL) throws {
        let turns = try Self.create(directory.appendingPathComponent("turns.csv"), header: Self.turnColumns)
        let sessions = try Self.create(directory.appendingPathComponent("sessions.csv"), header: Self.sessionColumns)
        files = Mutex((turns, sessions))
    }

    package func write(_ turn: TurnRecord) {
        let head: [String] = [
            String(turn.client), String(turn.iteration), String(turn.turn), Self.escape(turn.label),
            turn.outcome.rawValue, Self.milliseconds(turn.speechStartOffsetUs), Self.milliseconds(turn.speechEndOffsetUs),
        ]
        let tail: [String] = [
            String(turn.bargeIn), turn.missedInterruption.map(String.init) ?? "", turn.audioAlreadyDelivered.map(String.init) ?? "",
            turn.stallCount.map(String.init) ?? "", Self.format(turn.replyRTF), turn.turnEndBy?.rawValue ?? "",
            String(turn.backchannels), String(turn.backchannelsStopped), turn.turnsResumed.map(String.init) ?? "",
        ]
        let line = Self.line(head + TurnRecord.metricNames.map { Self.milliseconds(turn.value(of: $0)) } + tail)
        files.withLock { $0.turns.write(line) }
    }

    package func write(_ session: SessionRecord) {
        let line = Self.line(
            [
                String(session.client), String(session.iteration), session.outcome.rawValue, session.errorClass ?? "",
                Self.milliseconds(session.restSetupUs), Self.milliseconds(session.connectUs),
                Self.milliseconds(session.connectPhases?.dnsUs), Self.milliseconds(session.connectPhases?.tcpUs),
                Self.milliseconds(session.connectPhases?.tlsUs), Self.milliseconds(session.connectPhases?.upgradeUs),
                Self.milliseconds(session.webRTCPhases?.signallingUs), Self.milliseconds(session.webRTCPhases?.iceUs),
                Self.milliseconds(session.webRTCPhases?.dtlsUs), Self.milliseconds(session.webRTCPhases?.dataChannelOpenUs),
                Self.milliseconds(session.startedUs), Self.milliseconds(session.readyUs),
                Self.milliseconds(session.sessionSetupTotalUs), Self.milliseconds(session.readyFromScheduledUs),
                Self.milliseconds(session.greetingUs), String(session.backchannels.spoken), Self.format(session.backchannels.ratePercent),
                String(session.turns), String(session.attempts),
            ] + Self.rtpFields(session.rtp) + Self.voiceFields(session.voice)
        )
        files.withLock { $0.sessions.write(line) }
    }

    /// The agent's RTP streams over the session's attempts, named as report.json's `rtp`
    /// (docs/reports.md); empty for a session that made no WebRTC call.
    static func rtpFields(_ rtp: RTPReceiveCounts?) -> [String] {
        guard let rtp else { return ["", "", "", "", ""] }
        return [
            String(rtp.packetsReceived), String(rtp.packetsExpected), String(rtp.packetsLost), String(rtp.latePackets),
            format(rtp.jitterMsMax),
        ]
    }

    /// The caller's draws (docs/callers.md); empty when callers do not vary, and the noise's
    /// when the caller has none.
    static func voiceFields(_ voice: CallerVoice?) -> [String] {
        guard let voice else { return ["", "", "", "", ""] }
        let twoDecimals = { (value: Double) in String(format: "%.2f", value) }
        return [
            voice.noise.map { escape($0.bed) } ?? "", voice.noise.map { twoDecimals($0.snrDb) } ?? "",
            voice.noise.map { String($0.offsetMs) } ?? "", twoDecimals(voice.gainDb), twoDecimals(voice.speakingRate),
        ]
    }

    package func close() {
        files.withLock {
            try? $0.turns.close()
            try? $0.sessions.close()
        }
    }

    private static func create(_ url: URL, header: [String]) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: url.path, contents: line(header)) else {
            throw InputError("cannot write \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        return handle
    }

    private static func line(_ fields: [String]) -> Data {
        Data((fields.joined(separator: ",") + "\n").utf8)
    }

    /// A figure in µs written in milliseconds, to the microsecond (`712.500`); empty when
    /// absent ("n/a", never zero).
    static func milliseconds(_ microseconds: Int64?) -> String {
        format(microseconds.map { Double($0) / 1_000 })
    }

    /// Three decimals; empty when absent.
    static func format(_ value: Double?) -> String {
        guard let value else { return "" }
        return String(format: "%.3f", value)
    }

    static func escape(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
