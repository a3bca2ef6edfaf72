import WSClient
import WSCore

/// Masks a run's secrets in the text of its error examples.
///
/// Built from the `SessionPlan`: every custom header value (and, for `Authorization: Bearer
/// KEY`-style values, the key alone), every subprotocol, every URL query value whose name looks
/// secret (or that carries the dialect's token), the REST request's credentials, and a token
/// the dialect sends in its session parameters. Each occurrence becomes `***`. On top, the
/// generic rules of `URLQuery` apply to any text: `token=…`, `api_key=…`, `client_secret=…`
/// values and `Bearer …` become `***` too, so a per-session credential (a REST answer's
/// WebSocket URL) is masked without being known in advance.
package struct Redactor: Sendable, Hashable {
    package static let mask = "***"
    /// Secrets shorter than this are not searched for: masking every `7` of a detail for a
    /// `X-Shard: 7` header would garble it, and no credential is that short.
    package static let minimumSecretLength = 4

    /// The values masked wherever they occur, longest first (one that contains another is
    /// masked whole).
    package let secrets: [String]

    /// A redactor for these values (shorter ones than `minimumSecretLength` are ignored).
    package init(secrets: [String]) {
        let kept = Set(secrets.filter { $0.count >= Self.minimumSecretLength })
        self.secrets = kept.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// The redactor of a run: the plan's headers, subprotocols, URL and REST credentials.
    package init(plan: SessionPlan) {
        var secrets = plan.subprotocols
        secrets += plan.headers.flatMap { Self.headerSecrets($0.value) }
        let tokenQueryName: String?
        switch plan.dialect.authentication {
        case .queryParameter(let name): tokenQueryName = name
        case .sessionParameter(let name):
            tokenQueryName = nil
            if case .string(let token)? = plan.scenario.sessionParameters[name] { secrets.append(token) }
        default: tokenQueryName = nil
        }
        // Twilio's auth token signs the upgrade (`X-Twilio-Signature`); it is never sent itself.
        if case .string(let authToken)? = plan.scenario.sessionParameters[TwilioMediaStreamsClientDialect.authTokenParameter] {
            secrets.append(authToken)
        }
        switch plan.target {
        case .webSocket(let endpoint):
            secrets += Self.querySecrets(endpoint.query, alsoNamed: tokenQueryName)
        case .rest(let endpoint, let request):
            let query = endpoint.requestTarget.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init)
            secrets += Self.querySecrets(query, alsoNamed: tokenQueryName)
            if let webSocketURL = request.webSocketURL, let endpoint = try? WebSocketEndpoint(parsing: webSocketURL) {
                secrets += Self.querySecrets(endpoint.query, alsoNamed: tokenQueryName)
            }
            for header in request.headers where !Self.plainHeaderNames.contains(header.name.lowercased()) {
                secrets += Self.headerSecrets(header.value)
            }
        case .webRTC(let target):
            let query = target.offerEndpoint.requestTarget.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init)
            secrets += Self.querySecrets(query, alsoNamed: tokenQueryName)
            for header in target.headers where !Self.plainHeaderNames.contains(header.name.lowercased()) {
                secrets += Self.headerSecrets(header.value)
            }
        }
        self.init(secrets: secrets)
    }

    /// REST request headers that never carry a credential.
    private static let plainHeaderNames: Set<String> = ["content-type", "accept", "content-length", "user-agent", "connection", "host"]

    /// A header value, and for `Scheme KEY` values the key alone.
    private static func headerSecrets(_ value: String) -> [String] {
        let words = value.split(separator: " ", omittingEmptySubsequences: true)
        return words.count > 1 ? [value, String(words[words.count - 1])] : [value]
    }

    /// The values (as written and percent-decoded) of the query parameters that look secret,
    /// or are named `alsoNamed`.
    private static func querySecrets(_ query: String?, alsoNamed tokenName: String?) -> [String] {
        guard let query else { return [] }
        var values: [String] = []
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let name = URLQuery.percentDecoded(parts[0])
            guard URLQuery.isSecret(name: name) || name == tokenName else { continue }
            values += [String(parts[1]), URLQuery.percentDecoded(parts[1])]
        }
        return values
    }

    /// `text` with every secret and every generic credential pattern masked.
    package func redact(_ text: String) -> String {
        var masked = text
        for secret in secrets where masked.contains(secret) {
            masked = masked.replacing(secret, with: Self.mask)
        }
        return Self.maskingGenericSecrets(masked)
    }

    /// The one-line, redacted detail of an error example.
    package func detail(_ evidence: ErrorEvidence) -> ErrorDetail {
        let line: String
        switch evidence {
        case .httpStatus(let status, let body):
            line = "HTTP \(status)" + (body.isEmpty ? "" : ": " + clip(body, to: 120))
        case .close(let code, let reason):
            let head = code.map { "close \($0)" } ?? "closed without a close code"
            line = head + (reason.map { $0.isEmpty ? "" : ": " + clip($0, to: 150) } ?? "")
        case .inBand(let code, let message):
            line = (code.map { clip($0, to: 60) } ?? "no code") + (message.isEmpty ? "" : ": " + clip(message, to: 130))
        case .frame(let frame, let reason):
            let text: String
            switch frame {
            case .text(let string): text = String(string.prefix(Self.framePrefixCharacters + longestSecret + 8))
            case .binary(let bytes):
                text = String(decoding: bytes.prefix(4 * (Self.framePrefixCharacters + longestSecret + 8)), as: UTF8.self)
            }
            line = clip(reason, to: 100) + " (\(frame.byteCount) bytes): " + clip(text, to: Self.framePrefixCharacters)
        case .text(let text):
            line = clip(text, to: ErrorDetail.maxCharacters)
        }
        return ErrorDetail(text: String(Self.oneLine(line).prefix(ErrorDetail.maxCharacters)))
    }

    /// How much of a malformed frame a detail shows.
    package static let framePrefixCharacters = 80

    private var longestSecret: Int { secrets.first?.count ?? 0 }

    /// The first `limit` characters of `text`, redacted and on one line. Redaction runs on a
    /// window a secret longer than the cut, so a secret straddling the cut is masked, never halved.
    func clip(_ text: String, to limit: Int) -> String {
        let window = redact(String(text.prefix(limit + longestSecret + 8)))
        let line = Self.oneLine(window)
        guard line.count > limit else { return line }
        return String(line.prefix(limit - 1)) + "…"
    }

    /// Control characters (newlines, tabs) as spaces.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    /// `name=value` with a secret-looking name (`URLQuery.isSecret`) → `name=***`, and
    /// `Bearer value` → `Bearer ***` unless the value is a word of prose (`isProseWord`).
    static func maskingGenericSecrets(_ text: String) -> String {
        let characters = Array(text)
        var out: [Character] = []
        out.reserveCapacity(characters.count)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "=" {
                var nameStart = out.count
                while nameStart > 0, isNameCharacter(out[nameStart - 1]) { nameStart -= 1 }
                out.append(character)
                index += 1
                let name = String(out[nameStart..<(out.count - 1)])
                if !name.isEmpty, URLQuery.isSecret(name: URLQuery.percentDecoded(name)) {
                    index = maskValue(of: characters, from: index, into: &out)
                }
                continue
            }
            if isBearer(characters, at: index), !(out.last?.isLetter ?? false) {
                var valueStart = index + 7
                while valueStart < characters.count, characters[valueStart] == " " { valueStart += 1 }
                out += characters[index..<valueStart]
                guard !isProseWord(characters, from: valueStart) else {
                    index = valueStart
                    continue
                }
                index = maskValue(of: characters, from: valueStart, into: &out)
                continue
            }
            out.append(character)
            index += 1
        }
        return String(out)
    }

    /// Skips the value starting at `start` and appends the mask instead (nothing for an empty value).
    private static func maskValue(of characters: [Character], from start: Int, into out: inout [Character]) -> Int {
        var end = start
        while end < characters.count, !isValueDelimiter(characters[end]) { end += 1 }
        if end > start { out += mask }
        return end
    }

    /// The value at `start` is a short word of lowercase letters (`Bearer auth required`,
    /// `Bearer token`): prose about the scheme, not a credential, which has digits, capitals or
    /// punctuation, or is longer. A run's own keys are masked by value wherever they occur.
    private static func isProseWord(_ characters: [Character], from start: Int) -> Bool {
        var end = start
        while end < characters.count, !isValueDelimiter(characters[end]) { end += 1 }
        let word = characters[start..<end]
        return (1...maxProseWordCharacters).contains(word.count)
            && word.allSatisfy { $0.isASCII && $0.isLowercase }
    }

    /// The longest lowercase word after `Bearer` that is taken for prose.
    private static let maxProseWordCharacters = 16

    /// `bearer` (any case) followed by a space.
    private static func isBearer(_ characters: [Character], at index: Int) -> Bool {
        guard index + 7 <= characters.count, characters[index + 6] == " " else { return false }
        return String(characters[index..<(index + 6)]).lowercased() == "bearer"
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || "_-.%".contains(character)
    }

    private static func isValueDelimiter(_ character: Character) -> Bool {
        character.isWhitespace || "&\"',;)]}<>#".contains(character)
    }
}

/// The redacted, one-line detail of an error example; only a `Redactor` makes one.
package struct ErrorDetail: Sendable, Hashable, CustomStringConvertible {
    /// The longest detail, in characters.
    package static let maxCharacters = 200

    package let text: String

    fileprivate init(text: String) {
        self.text = text
    }

    package var description: String { text }
}
