/// A path into an inbound frame, the JSONPath subset of docs/custom-dialects.md: `$` (the whole
/// message), `.name`, `['name']` or `["name"]`, `[0]`, `[*]` (every element of an array),
/// and the frame properties `@frame` (`text` or `binary`) and `@raw` (the frame's text).
package struct FramePath: Sendable, Hashable, CustomStringConvertible {
    package enum Root: Sendable, Hashable {
        case json
        case frameKind
        case raw
    }

    package enum Step: Sendable, Hashable {
        case key(String)
        case index(Int)
        case wildcard
    }

    package let root: Root
    package let steps: [Step]
    /// The path as written.
    package let description: String

    /// Parses `text`; the error is a one-line reason.
    package init(parsing text: String) throws(CustomSyntaxError) {
        description = text
        if text == "@frame" || text == "@raw" {
            root = text == "@frame" ? .frameKind : .raw
            steps = []
            return
        }
        guard text.first == "$" else {
            throw CustomSyntaxError("'\(text)' is not a path: paths start with '$' (or are '@frame' or '@raw')")
        }
        root = .json
        steps = try Self.steps(of: Array(text.dropFirst()), in: text)
    }

    /// Calls `body` on every value the path selects in `frame`, in document order, until it
    /// returns true; returns whether it did.
    package func contains(in frame: InboundFrame, where body: (JSONValue) -> Bool) -> Bool {
        switch root {
        case .frameKind: return body(.string(frame.kind.rawValue))
        case .raw: return frame.raw.map { body(.string($0)) } ?? false
        case .json: return frame.json.map { visit($0, from: 0, body) } ?? false
        }
    }

    /// The first value the path selects, if any.
    package func first(in frame: InboundFrame) -> JSONValue? {
        var found: JSONValue?
        _ = contains(in: frame) { value in
            found = value
            return true
        }
        return found
    }

    /// Every value the path selects, in document order.
    package func values(in frame: InboundFrame) -> [JSONValue] {
        var found: [JSONValue] = []
        _ = contains(in: frame) { value in
            found.append(value)
            return false
        }
        return found
    }

    private func visit(_ value: JSONValue, from index: Int, _ body: (JSONValue) -> Bool) -> Bool {
        guard index < steps.count else { return body(value) }
        switch steps[index] {
        case .key(let name):
            guard let object = value.objectValue, let member = object[name] else { return false }
            return visit(member, from: index + 1, body)
        case .index(let position):
            guard let array = value.arrayValue, position < array.count else { return false }
            return visit(array[position], from: index + 1, body)
        case .wildcard:
            guard let array = value.arrayValue else { return false }
            return array.contains { visit($0, from: index + 1, body) }
        }
    }

    private static func steps(of characters: [Character], in text: String) throws(CustomSyntaxError) -> [Step] {
        var steps: [Step] = []
        var index = 0
        while index < characters.count {
            switch characters[index] {
            case ".":
                index += 1
                let start = index
                while index < characters.count, characters[index] != ".", characters[index] != "[" { index += 1 }
                let name = String(characters[start..<index])
                guard !name.isEmpty, name != "*" else {
                    throw CustomSyntaxError("'\(text)': expected a member name after '.' (use [*] for every array element)")
                }
                steps.append(.key(name))
            case "[":
                guard let close = characters[index...].firstIndex(of: "]") else {
                    throw CustomSyntaxError("'\(text)': '[' without ']'")
                }
                steps.append(try bracketStep(String(characters[(index + 1)..<close]), in: text))
                index = close + 1
            default:
                throw CustomSyntaxError("'\(text)': expected '.' or '[' at '\(String(characters[index...]))'")
            }
        }
        return steps
    }

    private static func bracketStep(_ inner: String, in text: String) throws(CustomSyntaxError) -> Step {
        if inner == "*" { return .wildcard }
        if let position = Int(inner), position >= 0, inner.allSatisfy(\.isASCII) { return .index(position) }
        if inner.count >= 2, let quote = inner.first, quote == "'" || quote == "\"", inner.last == quote {
            return .key(String(inner.dropFirst().dropLast()))
        }
        throw CustomSyntaxError("'\(text)': '[\(inner)]' must be [*], [<index ≥ 0>] or ['<name>']")
    }
}
