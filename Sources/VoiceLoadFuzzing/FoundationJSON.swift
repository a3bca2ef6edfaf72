import Foundation
import VoiceLoad

/// `JSONSerialization`'s reading and writing, as `JSONValue`s: the reference the JSON target
/// holds `JSONValue.parse` and `JSONText` to.
enum FoundationJSON {
    /// The value `JSONSerialization` reads from `bytes` (any value at the top), or nil when it
    /// refuses them.
    static func value(parsing bytes: [UInt8]) -> JSONValue? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else { return nil }
        return value(of: object)
    }

    /// The text `JSONSerialization` writes for `value` with sorted keys and unescaped slashes.
    static func text(_ value: JSONValue) -> String? {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object(of: value),
                options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]
            )
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// A Foundation object as a `JSONValue`: booleans stay booleans (told apart from 0 and 1 by
    /// their class), integers that fit 64 bits are integers, other numbers doubles.
    static func value(of object: Any) -> JSONValue? {
        switch object {
        case is NSNull: return .null
        case let string as String: return .string(string)
        case let number as NSNumber:
            if ObjectIdentifier(type(of: number)) == booleanClass { return .bool(number.boolValue) }
            if number is NSDecimalNumber { return .number(number.doubleValue) }
            switch String(cString: number.objCType) {
            case "d", "f": return .number(number.doubleValue)
            case "Q": return number.uint64Value <= UInt64(Int64.max) ? .integer(number.int64Value) : .number(number.doubleValue)
            default: return .integer(number.int64Value)
            }
        case let array as [Any]:
            var values: [JSONValue] = []
            for element in array {
                guard let value = value(of: element) else { return nil }
                values.append(value)
            }
            return .array(values)
        case let dictionary as [String: Any]:
            var members: [String: JSONValue] = [:]
            for (key, element) in dictionary {
                guard let value = value(of: element) else { return nil }
                members[key] = value
            }
            return .object(members)
        default:
            return nil
        }
    }

    /// `value` as the Foundation object `JSONSerialization` writes: integral numbers below
    /// 10^15 as integers, as `JSONText` writes them.
    static func object(of value: JSONValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .bool(let flag): return flag
        case .integer(let integer): return integer
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 { return Int(number) }
            return number
        case .string(let string): return string
        case .array(let values): return values.map(object(of:))
        case .object(let members): return members.mapValues(object(of:))
        }
    }

    /// The class Foundation uses for JSON `true`/`false` (`__NSCFBoolean` on both Darwin and Linux).
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))
}
