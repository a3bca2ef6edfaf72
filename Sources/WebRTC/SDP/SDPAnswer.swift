/// What vload needs from the peer's SDP answer (RFC 8866, RFC 8839, RFC 8122): its ICE
/// credentials and candidates, whether it is an ICE-lite agent, its certificate fingerprint and
/// DTLS role, and the payload type it gave opus. Session-level values hold where the audio
/// section does not repeat them.
package struct SDPAnswer: Sendable, Hashable {
    package var iceUfrag: String
    package var icePassword: String
    package var iceLite: Bool
    package var candidates: [ICECandidate]
    package var fingerprint: DTLSFingerprint
    package var setup: DTLSSetupRole
    package var opusPayloadType: UInt8
    /// The audio section's direction (`sendrecv` when the answer states none, RFC 8866 §6.7).
    package var direction: String
    /// The data channel's SCTP port (RFC 8841 §5: 5000 when the section states none), nil when
    /// the answer has no data channel section or rejects it (port 0).
    package var sctpPort: UInt16?
    /// The largest message the peer takes on the data channel (RFC 8841 §6: 64 KiB when unstated,
    /// 0 for no limit).
    package var maxMessageSizeBytes: Int?

    /// Reads an answer; one that lacks what a WebRTC audio call needs is a typed error naming it.
    package init(parsing text: String) throws(SDPParseError) {
        var session = Attributes()
        var audio: Attributes?
        var application: (sctpPort: UInt16?, maxMessageSizeBytes: Int?)?
        var sawAudio = false
        var inAudio = false
        var inApplication = false
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingSuffixSpaces()
            if line.hasPrefix("m=") {
                inApplication = application == nil && line.hasPrefix("m=application ") && !line.hasPrefix("m=application 0 ")
                if inApplication { application = (nil, nil) }
                inAudio = !sawAudio && line.hasPrefix("m=audio ")
                if inAudio {
                    sawAudio = true
                    let fields = line.dropFirst(2).split(separator: " ")
                    guard fields.count >= 4 else { throw .malformedLine(String(line)) }
                    audio = Attributes()
                    audio?.payloadTypes = fields[3...].compactMap { UInt8($0) }
                }
                continue
            }
            guard line.hasPrefix("a=") else { continue }
            let attribute = line.dropFirst(2)
            let name = attribute.prefix { $0 != ":" }
            let value = attribute.count > name.count ? attribute.dropFirst(name.count + 1) : ""
            if inApplication {
                guard name == "sctp-port" || name == "max-message-size" else { continue }
                guard let number = Int(value), number >= 0 else { throw .malformedLine(String(line)) }
                if name == "sctp-port" {
                    guard let port = UInt16(exactly: number), port != 0 else { throw .malformedLine(String(line)) }
                    application?.sctpPort = port
                } else {
                    application?.maxMessageSizeBytes = number
                }
            } else if inAudio {
                try audio?.read(name: name, value: value, line: line)
            } else if audio == nil {
                try session.read(name: name, value: value, line: line)
            }
        }
        guard let audio else { throw .missing("m=audio section") }
        guard let ufrag = audio.iceUfrag ?? session.iceUfrag, !ufrag.isEmpty else { throw .missing("a=ice-ufrag") }
        guard let password = audio.icePassword ?? session.icePassword, !password.isEmpty else { throw .missing("a=ice-pwd") }
        guard let fingerprint = audio.fingerprint ?? session.fingerprint else { throw .missing("a=fingerprint") }
        guard let opus = audio.opusPayloadType, audio.payloadTypes.contains(opus) else { throw .missing("a=rtpmap for opus/48000/2") }
        let candidates = session.candidates + audio.candidates
        guard !candidates.isEmpty else { throw .missing("a=candidate") }
        self.iceUfrag = ufrag
        self.icePassword = password
        self.iceLite = session.iceLite
        self.candidates = candidates
        self.fingerprint = fingerprint
        // RFC 8842 §5.3: an answer with no a=setup means active.
        self.setup = audio.setup ?? session.setup ?? .active
        self.opusPayloadType = opus
        self.direction = audio.direction ?? "sendrecv"
        if let application {
            self.sctpPort = application.sctpPort ?? SCTPAssociation.defaultPort
            self.maxMessageSizeBytes = application.maxMessageSizeBytes ?? Self.defaultMaxMessageSizeBytes
        }
    }

    /// RFC 8841 §6: a peer that states no a=max-message-size takes 64 KiB.
    package static let defaultMaxMessageSizeBytes = 65_536

    /// One section's (or the session's) attributes, as an answer or an offer states them.
    struct Attributes {
        var iceUfrag: String?
        var icePassword: String?
        var iceLite = false
        var candidates: [ICECandidate] = []
        var fingerprint: DTLSFingerprint?
        var setup: DTLSSetupRole?
        var opusPayloadType: UInt8?
        var payloadTypes: [UInt8] = []
        var direction: String?
        var mediaID: String?

        mutating func read(name: Substring, value: Substring, line: Substring) throws(SDPParseError) {
            switch name {
            case "mid": mediaID = String(value)
            case "ice-ufrag": iceUfrag = String(value)
            case "ice-pwd": icePassword = String(value)
            case "ice-lite": iceLite = true
            case "candidate":
                guard let candidate = ICECandidate(attributeValue: value) else { throw .malformedLine(String(line)) }
                // Component 1 only: with rtcp-mux RTP and RTCP share it (RFC 8035).
                if candidate.component == 1 && candidate.transport == "udp" { candidates.append(candidate) }
            case "fingerprint":
                guard let fingerprint = DTLSFingerprint(attributeValue: value) else { throw .malformedLine(String(line)) }
                if fingerprint.hashFunction == "sha-256" || self.fingerprint == nil { self.fingerprint = fingerprint }
            case "setup":
                guard let role = DTLSSetupRole(rawValue: String(value)) else { throw .malformedLine(String(line)) }
                setup = role
            case "rtpmap":
                let fields = value.split(separator: " ")
                if fields.count == 2, fields[1].lowercased().hasPrefix("opus/48000"), let payloadType = UInt8(fields[0]) {
                    opusPayloadType = opusPayloadType ?? payloadType
                }
            case "sendrecv", "sendonly", "recvonly", "inactive": direction = String(name)
            default: break
            }
        }
    }
}

/// Why an SDP answer cannot set up vload's audio call.
package enum SDPParseError: Error, Hashable, CustomStringConvertible {
    case missing(String)
    case malformedLine(String)

    package var description: String {
        switch self {
        case .missing(let what): return "SDP answer has no \(what)"
        case .malformedLine(let line): return "SDP answer line is malformed: \(line)"
        }
    }
}

extension Substring {
    func trimmingSuffixSpaces() -> Substring {
        var line = self
        while line.last == " " || line.last == "\t" { line = line.dropLast() }
        return line
    }
}
