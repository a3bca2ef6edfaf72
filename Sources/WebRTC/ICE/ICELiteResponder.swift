/// The ICE-lite side of one session (RFC 8445 §2.5, §7.3) as a value: it sends no checks and
/// only answers the caller's, which must be signed with its password and name its ufrag first
/// in USERNAME. The pair a check with USE-CANDIDATE arrives on is selected; with aggressive
/// nomination (every check of vload's nominates) that is the first authentic check. A lite agent
/// is always the controlled one: a check that says ICE-CONTROLLED gets 487 Role Conflict, so
/// the full agent takes the controlling role (§7.3.1.1). Binding indications (keepalives) and
/// responses get nothing.
package struct ICELiteResponder: Sendable {
    package let localUfrag: String
    package let localPassword: String
    /// The caller's ufrag, from its offer: USERNAME is "<localUfrag>:<remoteUfrag>".
    package let remoteUfrag: String
    package private(set) var selected: STUNAddress?
    /// The caller's checks answered, and those dropped as not authentic.
    package private(set) var requestsAnswered = 0
    package private(set) var requestsRejected = 0
    /// Where authentic checks came from (`hasAnswered`).
    private var answeredSources: [STUNAddress] = []

    package init(localUfrag: String, localPassword: String, remoteUfrag: String) {
        self.localUfrag = localUfrag
        self.localPassword = localPassword
        self.remoteUfrag = remoteUfrag
    }

    /// What the I/O does for the responder.
    package enum Action: Sendable, Hashable {
        case send([UInt8], to: STUNAddress)
        /// A check with USE-CANDIDATE nominated the pair to `remote` (again only when it changes).
        case selected(remote: STUNAddress)
    }

    /// Whether an authentic check came from `source`: before ICE names the pair, the answerer
    /// reads DTLS only from such a source.
    package func hasAnswered(_ source: STUNAddress) -> Bool { answeredSources.contains(source) }

    /// A STUN datagram from `source`.
    package mutating func receive(_ bytes: [UInt8], from source: STUNAddress) -> [Action] {
        let key = Array(localPassword.utf8)
        guard bytes.count >= STUNMessage.headerByteCount, bytes[0] == 0x00, bytes[1] == 0x01 else { return [] }
        guard let request = try? STUNMessage(parsing: bytes, integrityKey: key), request.hadIntegrity,
            request.attribute({ if case .username(let text) = $0 { text } else { nil } }) == "\(localUfrag):\(remoteUfrag)"
        else {
            requestsRejected += 1
            return []
        }
        requestsAnswered += 1
        if !answeredSources.contains(source) { answeredSources.append(source) }
        if request.attribute({ if case .iceControlled(let value) = $0 { value } else { nil } }) != nil {
            let error = STUNMessage(
                type: .bindingError, transactionID: request.transactionID, attributes: [.errorCode(code: 487, reason: "Role Conflict")])
            return [.send(error.serialized(integrityKey: key, fingerprint: true), to: source)]
        }
        let success = STUNMessage(type: .bindingSuccess, transactionID: request.transactionID, attributes: [.xorMappedAddress(source)])
        var actions: [Action] = [.send(success.serialized(integrityKey: key, fingerprint: true), to: source)]
        if request.attributes.contains(.useCandidate), selected != source {
            selected = source
            actions.append(.selected(remote: source))
        }
        return actions
    }
}
