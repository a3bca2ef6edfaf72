/// The wire names of the Twilio Media Streams events.
enum TwilioEventName {
    // Twilio (vload) → agent server.
    static let connected = "connected"
    static let start = "start"
    static let dtmf = "dtmf"
    static let stop = "stop"
    // Both directions.
    static let media = "media"
    static let mark = "mark"
    // Agent server → Twilio (vload).
    static let clear = "clear"
}
