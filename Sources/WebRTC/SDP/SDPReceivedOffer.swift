/// What an answerer needs from a caller's SDP offer (RFC 8866, RFC 8829 §5.3): the ICE
/// credentials, the certificate fingerprint and DTLS role, the audio section's identification
/// tag and the payload type it gave opus, and the data channel's section when there is one.
/// Session-level values hold where a section does not repeat them. The offer's candidates are
/// not needed: an ICE-lite answerer only answers checks (RFC 8445 §2.5).
package struct SDPReceivedOffer: Sendable, Hashable {
    package var iceUfrag: String
    package var icePassword: String
    package var fingerprint: DTLSFingerprint
    package var setup: DTLSSetupRole
    package var opusPayloadType: UInt8
    /// The audio section's `a=mid` (RFC 9143), "0" when it has none.
    package var audioMediaID: String
    /// The data channel's section, nil when the offer has none (or rejects it with port 0).
    package var dataChannel: SDPDataChannelSection?

    /// Reads an offer; one that lacks what a WebRTC audio call needs is a typed error naming it.
    package init(parsing text: String) throws(SDPOfferParseError) {
        var session = SDPAnswer.Attributes()
        var audio: SDPAnswer.Attributes?
        var application: (mediaID: String?, sctpPort: UInt16?)?
        var section = Section.session
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingSuffixSpaces()
            if line.hasPrefix("m=") {
                section = .other
                if audio == nil && line.hasPrefix("m=audio ") {
                    let fields = line.dropFirst(2).split(separator: " ")
                    guard fields.count >= 4 else { throw .malformedLine(String(line)) }
                    audio = SDPAnswer.Attributes()
                    audio?.payloadTypes = fields[3...].compactMap { UInt8($0) }
                    section = .audio
                } else if application == nil && line.hasPrefix("m=application ") && !line.hasPrefix("m=application 0 ") {
                    application = (nil, nil)
                    section = .application
                }
                continue
            }
            guard line.hasPrefix("a=") else { continue }
            let attribute = line.dropFirst(2)
            let name = attribute.prefix { $0 != ":" }
            let value = attribute.count > name.count ? attribute.dropFirst(name.count + 1) : ""
            switch section {
            case .session: try Self.read(&session, name: name, value: value, line: line)
            case .audio where audio != nil: try Self.read(&audio!, name: name, value: value, line: line)
            case .application:
                if name == "mid" { application?.mediaID = String(value) }
                if name == "sctp-port" {
                    guard let port = UInt16(value), port != 0 else { throw .malformedLine(String(line)) }
                    application?.sctpPort = port
                }
            case .audio, .other: break
            }
        }
        guard let audio else { throw .missing("m=audio section") }
        guard let ufrag = audio.iceUfrag ?? session.iceUfrag, !ufrag.isEmpty else { throw .missing("a=ice-ufrag") }
        guard let password = audio.icePassword ?? session.icePassword, !password.isEmpty else { throw .missing("a=ice-pwd") }
        guard let fingerprint = audio.fingerprint ?? session.fingerprint else { throw .missing("a=fingerprint") }
        guard let opus = audio.opusPayloadType, audio.payloadTypes.contains(opus) else {
            throw .missing("a=rtpmap for opus/48000/2")
        }
        self.iceUfrag = ufrag
        self.icePassword = password
        self.fingerprint = fingerprint
        // RFC 8842 §5.2: an offer with no a=setup means actpass.
        self.setup = audio.setup ?? session.setup ?? .actpass
        self.opusPayloadType = opus
        self.audioMediaID = audio.mediaID ?? "0"
        if let application {
            dataChannel = SDPDataChannelSection(mediaID: application.mediaID ?? "1", sctpPort: application.sctpPort ?? SCTPAssociation.defaultPort)
        }
    }

    /// The role the answerer takes: passive (the DTLS server) unless the offerer insists on being
    /// passive itself (RFC 8842 §5.3).
    package var answererSetup: DTLSSetupRole { setup == .passive ? .active : .passive }

    private enum Section { case session, audio, application, other }

    /// One attribute, read as an answer's would be; a malformed one names the offer's line.
    private static func read(_ attributes: inout SDPAnswer.Attributes, name: Substring, value: Substring, line: Substring)
        throws(SDPOfferParseError)
    {
        do {
            try attributes.read(name: name, value: value, line: line)
        } catch {
            throw .malformedLine(String(line))
        }
    }
}

/// An offer's data channel section (RFC 8841): its identification tag and SCTP port.
package struct SDPDataChannelSection: Sendable, Hashable {
    package var mediaID: String
    package var sctpPort: UInt16
}

/// Why an SDP offer cannot set up an answerer's audio call.
package enum SDPOfferParseError: Error, Hashable, CustomStringConvertible {
    case missing(String)
    case malformedLine(String)

    package var description: String {
        switch self {
        case .missing(let what): return "SDP offer has no \(what)"
        case .malformedLine(let line): return "SDP offer line is malformed: \(line)"
        }
    }
}
