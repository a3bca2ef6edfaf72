import Yams

extension MessageTemplate {
    /// Compiles the template in `node`: a mapping or list is a JSON template, a string a raw
    /// text template. `$${` writes a literal `${`. Placeholders are checked against `scope`
    /// now, so an unknown variable is a load-time error.
    package init(_ node: Node, reader: CustomNodeReader, scope: TemplatePlaceholder.Scope) throws(CustomDialectError) {
        var builder = Builder(reader: reader, scope: scope)
        switch node {
        case .mapping, .sequence:
            try builder.writeJSON(node)
            self.init(segments: builder.segments, isJSON: true)
        case .scalar:
            guard case .string(let text)? = reader.scalarValue(node) else {
                throw reader.error(at: node, "\(scope.place) must be a JSON object or list, or a string of raw text")
            }
            try builder.writeRaw(text, at: node)
            self.init(segments: builder.segments, isJSON: false)
        case .alias:
            throw reader.error(at: node, "YAML aliases are not supported in dialect files")
        }
    }

    /// Accumulates segments, merging adjacent literal text.
    private struct Builder {
        let reader: CustomNodeReader
        let scope: TemplatePlaceholder.Scope
        var segments: [Segment] = []

        init(reader: CustomNodeReader, scope: TemplatePlaceholder.Scope) {
            self.reader = reader
            self.scope = scope
        }

        mutating func literal(_ text: String) {
            if case .literal(let previous)? = segments.last {
                segments[segments.count - 1] = .literal(previous + text)
            } else if !text.isEmpty {
                segments.append(.literal(text))
            }
        }

        mutating func writeJSON(_ node: Node) throws(CustomDialectError) {
            switch node {
            case .mapping:
                literal("{")
                for (index, member) in try reader.anyFields(node, what: "a JSON object in \(scope.place)").enumerated() {
                    guard !member.name.contains("${") else {
                        throw reader.error(at: member.key, "placeholders are not allowed in object keys (\(scope.place))")
                    }
                    literal((index > 0 ? "," : "") + JSONText.quoted(member.name) + ":")
                    try writeJSON(member.value)
                }
                literal("}")
            case .sequence(let items):
                literal("[")
                for (index, item) in items.enumerated() {
                    if index > 0 { literal(",") }
                    try writeJSON(item)
                }
                literal("]")
            case .scalar:
                switch reader.scalarValue(node) ?? .null {
                case .string(let text): try writeJSONString(text, at: node)
                case .number(let number):
                    guard number.isFinite else { throw reader.error(at: node, "JSON cannot carry '\(node.scalar?.string ?? "")'") }
                    literal(JSONText.number(number))
                case let other: literal(JSONText.text(other))
                }
            case .alias:
                throw reader.error(at: node, "YAML aliases are not supported in dialect files")
            }
        }

        /// A JSON string value: `"…"` with escaped text, or a whole-value placeholder with a suffix.
        mutating func writeJSONString(_ text: String, at node: Node) throws(CustomDialectError) {
            let pieces = try self.pieces(of: text, at: node)
            if pieces.count == 1, case .resolved(let resolution) = pieces[0], let suffix = resolution.suffix {
                switch resolution {
                case .environment(let value, _): literal(Self.constant(value, suffix: suffix))
                case .placeholder(let placeholder): segments.append(.value(placeholder.variable, suffix == .int ? .int : .json))
                }
                return
            }
            literal("\"")
            for piece in pieces {
                switch piece {
                case .text(let text):
                    var escaped = ""
                    JSONText.appendEscaped(text, to: &escaped)
                    literal(escaped)
                case .resolved(let resolution):
                    guard resolution.suffix == nil else {
                        throw reader.error(
                            at: node,
                            "a type suffix (:int, :json) needs the placeholder to be the whole string value (\(scope.place))"
                        )
                    }
                    switch resolution {
                    case .environment(let value, _):
                        var escaped = ""
                        JSONText.appendEscaped(value, to: &escaped)
                        literal(escaped)
                    case .placeholder(let placeholder): segments.append(.value(placeholder.variable, .escaped))
                    }
                }
            }
            literal("\"")
        }

        mutating func writeRaw(_ text: String, at node: Node) throws(CustomDialectError) {
            for piece in try pieces(of: text, at: node) {
                switch piece {
                case .text(let text): literal(text)
                case .resolved(.environment(let value, let suffix)):
                    literal(suffix.map { Self.constant(value, suffix: $0) } ?? value)
                case .resolved(.placeholder(let placeholder)):
                    let placement: Placement =
                        switch placeholder.suffix {
                        case nil: .plain
                        case .int?: .int
                        case .json?: .json
                        }
                    segments.append(.value(placeholder.variable, placement))
                }
            }
        }

        private enum Piece {
            case text(String)
            case resolved(TemplatePlaceholder.Resolution)
        }

        private func pieces(of text: String, at node: Node) throws(CustomDialectError) -> [Piece] {
            var pieces: [Piece] = []
            var current = ""
            var index = text.startIndex
            while index < text.endIndex {
                let rest = text[index...]
                if rest.hasPrefix("$${") {
                    current += "${"
                    index = text.index(index, offsetBy: 3)
                } else if rest.hasPrefix("${") {
                    guard let close = rest.firstIndex(of: "}") else {
                        throw reader.error(at: node, "unclosed '${' in \(scope.place)")
                    }
                    if !current.isEmpty { pieces.append(.text(current)) }
                    current = ""
                    let body = String(text[text.index(index, offsetBy: 2)..<close])
                    let resolution: TemplatePlaceholder.Resolution
                    do {
                        resolution = try TemplatePlaceholder.resolve(body, scope: scope)
                    } catch {
                        throw reader.error(at: node, "\(error.message) (in \(scope.place))")
                    }
                    if case .placeholder(let placeholder) = resolution, placeholder.suffix != nil,
                        placeholder.variable == .audioBase64 || placeholder.variable == .audioBase64URL
                    {
                        throw reader.error(at: node, "'${\(body)}' takes no type suffix (in \(scope.place))")
                    }
                    pieces.append(.resolved(resolution))
                    index = text.index(after: close)
                } else {
                    current.append(text[index])
                    index = text.index(after: index)
                }
            }
            if !current.isEmpty { pieces.append(.text(current)) }
            return pieces
        }

        private static func constant(_ value: String, suffix: TemplatePlaceholder.Suffix) -> String {
            suffix == .int ? JSONText.integer(.string(value)) : JSONText.quoted(value)
        }
    }
}

extension TemplatePlaceholder.Resolution {
    package var suffix: TemplatePlaceholder.Suffix? {
        switch self {
        case .environment(_, let suffix): return suffix
        case .placeholder(let placeholder): return placeholder.suffix
        }
    }
}
