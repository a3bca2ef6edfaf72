import Foundation

/// One condition of a matcher (docs/custom-dialects.md), tested against every value a path
/// selects: it holds when one of them satisfies it (for the negative forms `exists: false`
/// and `truthy: false`, when none satisfies the positive form).
package enum FrameCondition: Sendable {
    case equals(JSONValue)
    case exists(Bool)
    case oneOf([JSONValue])
    case prefix(String)
    case regex(FrameRegex)
    case truthy(Bool)

    package func holds(at path: FramePath, in frame: InboundFrame) -> Bool {
        switch self {
        case .equals(let expected):
            return path.contains(in: frame) { Self.scalar($0) == expected }
        case .exists(let expected):
            return path.contains(in: frame) { $0 != .null } == expected
        case .oneOf(let choices):
            return path.contains(in: frame) { value in
                guard let scalar = Self.scalar(value) else { return false }
                return choices.contains(scalar)
            }
        case .prefix(let prefix):
            return path.contains(in: frame) { $0.stringValue?.hasPrefix(prefix) ?? false }
        case .regex(let regex):
            return path.contains(in: frame) { $0.stringValue.map(regex.matches) ?? false }
        case .truthy(let expected):
            return path.contains(in: frame, where: Self.isTruthy) == expected
        }
    }

    /// A parsed JSON scalar; nil for arrays and objects, which equal no literal.
    package static func scalar(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .array, .object: return nil
        case .null, .bool, .integer, .number, .string: return value
        }
    }

    /// true, non-zero numbers, non-empty strings, arrays and objects.
    package static func isTruthy(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let array): return !array.isEmpty
        case .object(let object): return !object.isEmpty
        case .bool(let flag): return flag
        case .integer(let integer): return integer != 0
        case .number(let number): return number != 0
        case .string(let string): return !string.isEmpty
        case .null: return false
        }
    }
}

/// A compiled regular expression of a matcher. `NSRegularExpression` is immutable and safe
/// to use from several threads.
package struct FrameRegex: @unchecked Sendable {
    package let pattern: String
    package let expression: NSRegularExpression

    package func matches(_ string: String) -> Bool {
        expression.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil
    }
}
