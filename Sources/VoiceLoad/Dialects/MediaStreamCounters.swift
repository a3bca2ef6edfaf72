import WSCore

/// The counters the caller's side of one telephony media stream puts on the messages it sends
/// (docs/telephony.md; Twilio's in docs/dialects.md, "Twilio Media Streams —
/// `twilio-media-streams`"): the sequence number (one per message), the `media` chunk number
/// (from 1) and the stream timestamp (milliseconds of the chunk's first sample), and the
/// builders of the messages that carry them. One implementation for the Twilio codec and the
/// Telnyx, Plivo and Exotel codec: only the spelling (`Style`) differs.
struct MediaStreamCounters {
    /// How a provider writes its counters.
    struct Style {
        /// The sequence number's key (`sequenceNumber`, `sequence_number`).
        var sequenceKey: String
        /// The stream id's key (`streamSid`, `stream_id`, `streamId`, `stream_sid`).
        var streamIDKey: String
        /// Sequence and chunk numbers as strings (Twilio, Telnyx), or as numbers (Plivo, Exotel).
        var countersAsStrings: Bool
        /// Whether `media` carries `"track":"inbound"` (all but Exotel).
        var mediaHasTrack: Bool
    }

    let style: Style
    /// The audio format of `media`, for its timestamps.
    let format: AudioFormat
    let streamID: String
    private let streamIDLiteral: String
    /// The sequence number of the next message.
    private(set) var nextSequenceNumber: Int
    /// The chunk number of the next `media` message.
    private(set) var nextChunk = 1
    /// Audio bytes sent in `media` so far: the stream position of the next chunk.
    private(set) var streamBytes = 0

    init(style: Style, format: AudioFormat, streamID: String, firstSequenceNumber: Int) {
        self.style = style
        self.format = format
        self.streamID = streamID
        self.streamIDLiteral = JSONText.quoted(streamID)
        self.nextSequenceNumber = firstSequenceNumber
    }

    /// A message with `event`, the next sequence number and the stream id added to `extra`.
    mutating func messageFrame(_ event: String, extra: [String: JSONValue]) -> WireFrame {
        var object = extra
        object["event"] = .string(event)
        let sequence = takeSequenceNumber()
        object[style.sequenceKey] = style.countersAsStrings ? .string(String(sequence)) : .int(sequence)
        object[style.streamIDKey] = .string(streamID)
        return .text(JSONFrame.text(object))
    }

    /// The `media` message for `byteCount` bytes of audio (`base64`), by concatenation (once
    /// per frame per call: no dictionary, no serializer).
    mutating func mediaFrame(base64: String, byteCount: Int) -> WireFrame {
        let timestampMs = streamBytes * 1_000 / (format.sampleRateHz * format.bytesPerSample)
        let sequence = String(takeSequenceNumber())
        let quote = style.countersAsStrings ? "\"" : ""
        let track = style.mediaHasTrack ? #""track":"inbound","# : ""
        let text =
            #"{"event":"media",""# + style.sequenceKey + #"":"# + quote + sequence + quote
            + #",""# + style.streamIDKey + #"":"# + streamIDLiteral
            + #","media":{"# + track + #""chunk":"# + quote + String(nextChunk) + quote
            + #","timestamp":""# + String(timestampMs)
            + #"","payload":""# + base64 + #""}}"#
        nextChunk += 1
        streamBytes += byteCount
        return .text(text)
    }

    private mutating func takeSequenceNumber() -> Int {
        defer { nextSequenceNumber += 1 }
        return nextSequenceNumber
    }
}
