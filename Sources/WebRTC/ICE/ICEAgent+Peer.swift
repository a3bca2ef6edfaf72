/// The two kinds of STUN datagram the agent gets: the peer's checks and responses to its own.
extension ICEAgent {
    /// Answers an authentic check with a success naming where it came from (RFC 8445 §7.3). A
    /// check vload cannot authenticate gets no answer (§7.3.1 leaves it to a 400 or 401; silence
    /// tells a load test's peer nothing it needs). A controlling peer with a lower tie-breaker
    /// gets 487 Role Conflict (§7.3.1.1); vload never gives the controlling role up.
    mutating func answerRequest(_ bytes: [UInt8], from source: STUNAddress, nowUs: UInt64) -> [ICEAction] {
        let key = Array(configuration.localPassword.utf8)
        guard let request = try? STUNMessage(parsing: bytes, integrityKey: key),
            let username = request.attribute({ if case .username(let text) = $0 { text } else { nil } }),
            username.hasPrefix(configuration.localUfrag + ":")
        else {
            requestsRejected += 1
            return []
        }
        requestsAnswered += 1
        if let peerTieBreaker = request.attribute({ if case .iceControlling(let value) = $0 { value } else { nil } }),
            configuration.tieBreaker >= peerTieBreaker
        {
            let error = STUNMessage(
                type: .bindingError, transactionID: request.transactionID, attributes: [.errorCode(code: 487, reason: "Role Conflict")])
            return [.send(error.serialized(integrityKey: key, fingerprint: true), to: source)]
        }
        let success = STUNMessage(type: .bindingSuccess, transactionID: request.transactionID, attributes: [.xorMappedAddress(source)])
        var actions: [ICEAction] = [.send(success.serialized(integrityKey: key, fingerprint: true), to: source)]
        // A check from an address the answer did not list is a peer-reflexive candidate (§7.3.1.3): check it too.
        if case .checking = state, !checks.contains(where: { $0.remote == source }), !failedRemotes.contains(source),
            !configuration.remoteAddresses.contains(source), source.ipBytes.count == 4
        {
            actions.append(startCheck(to: source, nowUs: nowUs))
        }
        return actions
    }

    /// A success from the address checked selects that pair (aggressive nomination: every check
    /// nominates); an error fails the pair. Responses that match no check, or that are not signed
    /// with the peer's password, are dropped. Once selected, responses are consent's.
    mutating func handleResponse(_ bytes: [UInt8], from source: STUNAddress, nowUs: UInt64) -> [ICEAction] {
        if case .selected = state {
            guard let response = try? STUNMessage(parsing: bytes, integrityKey: Array(configuration.remotePassword.utf8)) else { return [] }
            return consentResponse(response, from: source, nowUs: nowUs)
        }
        guard case .checking(let firstCheckUs) = state,
            let response = try? STUNMessage(parsing: bytes, integrityKey: Array(configuration.remotePassword.utf8)),
            let index = checks.firstIndex(where: { $0.transactionID == response.transactionID }),
            checks[index].remote == source
        else { return [] }
        switch response.type {
        case .bindingSuccess:
            let iceMs = Double(nowUs - firstCheckUs) / 1_000
            state = .selected(remote: source, iceMs: iceMs)
            checks = []
            startConsent(nowUs: nowUs)
            return [.selected(remote: source, iceMs: iceMs)]
        case .bindingError:
            let code = response.attribute({ if case .errorCode(let code, _) = $0 { code } else { nil } })
            if code == 487 {
                return fail(.roleConflict)
            }
            failedRemotes.insert(source)
            checks.remove(at: index)
            return checks.isEmpty ? fail(.allChecksFailed(remotes: failedRemotes.count)) : []
        case .bindingRequest, .bindingIndication:
            return []
        }
    }
}
