/// One `${…}` placeholder of a template (docs/custom-dialects.md), resolved against what the
/// template may use. `${env.NAME}` is resolved when the dialect loads and never reaches a
/// codec; `${uuid}`, `${digits:N}` and `${now_iso}` are drawn by the codec from the random
/// generator and wall clock it is given (`TemplateEntropy`).
package struct TemplatePlaceholder: Sendable, Hashable {
    package enum Variable: Sendable, Hashable {
        /// `${audio.b64}`, `${audio.b64url}`: the audio of the frame being sent.
        case audioBase64
        case audioBase64URL
        /// `${seq}`: 1 for the first frame sent from a template that uses it, then +1.
        case seq
        /// `${chunk}`: the 1-based index of the audio frame (in other templates: the number
        /// of audio frames sent so far).
        case chunk
        /// `${ts_ms}`: the stream position of the audio frame's first sample, in ms (in
        /// other templates: the audio sent so far).
        case tsMs
        /// `${var.NAME}`: a captured variable.
        case captured(String)
        /// `${msg.PATH}`: a field of the inbound message a reply answers.
        case message(FramePath)
        /// `${session}` (all of them, as an object) or `${session.NAME}`: the scenario's
        /// session parameters.
        case session(String?)
        /// `${text}`: the user text of a `send.text` message.
        case text
        /// `${uuid}`: a random version-4 UUID, lowercase.
        case uuid
        /// `${digits:N}`: N random decimal digits.
        case digits(Int)
        /// `${now_iso}`: the wall-clock time, UTC ISO-8601 with milliseconds.
        case nowISO
        /// `${env.NAME}` of an unset variable, where that is allowed (`connect.url`): the
        /// template cannot be resolved.
        case unsetEnvironment(String)

        /// Whether the codec draws the value from its random generator or clock.
        var isGenerated: Bool {
            switch self {
            case .uuid, .digits, .nowISO: return true
            default: return false
            }
        }
    }

    /// A `:int` or `:json` suffix: the placeholder is a whole JSON value, not string text.
    package enum Suffix: String, Sendable, Hashable {
        case int
        case json
    }

    package var variable: Variable
    package var suffix: Suffix?

    /// What may appear in one template.
    package struct Scope {
        var allowsAudio = false
        var allowsMessage = false
        var allowsText = false
        /// False where the template is resolved at load time (headers, subprotocols): only
        /// `${env.NAME}` may appear.
        var resolvedAtLoad = false
        /// The variables some capture sets.
        var capturedNames: Set<String> = []
        var environment: [String: String] = [:]
        /// Whether an unset environment variable leaves the template unresolved instead of
        /// being an error.
        var allowsUnsetEnvironment = false
        /// Where the template is, for messages (`audio.input.json`).
        var place: String
    }

    /// What a placeholder body stands for: a value from the environment, fixed now, or a
    /// placeholder filled in when the frame is built.
    package enum Resolution {
        case environment(String, suffix: Suffix?)
        case placeholder(TemplatePlaceholder)
    }

    package static let knownNames =
        "audio.b64, audio.b64url, seq, chunk, ts_ms, uuid, digits:N, now_iso, env.NAME, var.NAME, msg.PATH, session, session.NAME, text"

    /// The longest `${digits:N}`.
    package static let maxDigits = 1_000

    /// Resolves the text between `${` and `}`; the error is a one-line reason.
    package static func resolve(_ body: String, scope: Scope) throws(CustomSyntaxError) -> Resolution {
        let shown = "${\(body)}"
        var name = body
        var suffix: Suffix?
        if let colon = body.lastIndex(of: ":") {
            if let parsed = Suffix(rawValue: String(body[body.index(after: colon)...])) {
                suffix = parsed
                name = String(body[..<colon])
            } else if !body.hasPrefix("digits:") || body.count(where: { $0 == ":" }) > 1 {
                // Not a suffix, and not the colon of `${digits:N}` (the one name that has one).
                throw CustomSyntaxError("unknown type suffix in '\(shown)' (known: :int, :json)")
            }
        }
        if let variableName = name.dropPrefix("env.") {
            guard let value = scope.environment[variableName] else {
                if scope.allowsUnsetEnvironment {
                    return .placeholder(TemplatePlaceholder(variable: .unsetEnvironment(variableName), suffix: suffix))
                }
                throw CustomSyntaxError("environment variable '\(variableName)' is not set (used by '\(shown)')")
            }
            return .environment(value, suffix: suffix)
        }
        if scope.resolvedAtLoad {
            throw CustomSyntaxError("'\(shown)' cannot be used here: it is resolved when the dialect loads, so only ${env.NAME} is allowed")
        }
        return .placeholder(TemplatePlaceholder(variable: try variable(name, shown: shown, scope: scope), suffix: suffix))
    }

    private static func variable(_ name: String, shown: String, scope: Scope) throws(CustomSyntaxError) -> Variable {
        switch name {
        case "audio.b64", "audio.b64url":
            guard scope.allowsAudio else { throw CustomSyntaxError("'\(shown)' is only allowed in audio.input.json") }
            return name == "audio.b64" ? .audioBase64 : .audioBase64URL
        case "seq": return .seq
        case "uuid": return .uuid
        case "now_iso": return .nowISO
        case "chunk": return .chunk
        case "ts_ms": return .tsMs
        case "session": return .session(nil)
        case "text":
            guard scope.allowsText else { throw CustomSyntaxError("'\(shown)' is only allowed in send.text") }
            return .text
        default:
            break
        }
        if let count = name.dropPrefix("digits:") {
            guard let digits = Int(count), (1...maxDigits).contains(digits) else {
                throw CustomSyntaxError("'\(shown)' needs a digit count from 1 to \(maxDigits)")
            }
            return .digits(digits)
        }
        if let captured = name.dropPrefix("var.") {
            guard scope.capturedNames.contains(captured) else {
                let declared = scope.capturedNames.sorted().joined(separator: ", ")
                throw CustomSyntaxError(
                    "unknown template variable '\(shown)': no capture sets '\(captured)' (declared: \(declared.isEmpty ? "none" : declared))"
                )
            }
            return .captured(captured)
        }
        if let path = name.dropPrefix("msg.") {
            guard scope.allowsMessage else { throw CustomSyntaxError("'\(shown)' is only allowed in send.replies") }
            do {
                return .message(try FramePath(parsing: "$." + path))
            } catch {
                throw CustomSyntaxError("bad path in '\(shown)': \(error.message)")
            }
        }
        if let parameter = name.dropPrefix("session."), !parameter.isEmpty {
            return .session(parameter)
        }
        throw CustomSyntaxError("unknown template variable '\(shown)' (known: \(knownNames))")
    }
}

extension String {
    /// The rest of the string after `prefix`, nil when it does not start with it.
    fileprivate func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
