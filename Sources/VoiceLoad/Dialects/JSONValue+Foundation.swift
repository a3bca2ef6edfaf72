import Foundation

extension JSONValue {
    /// The value `JSONSerialization` produced for `object`, or nil when `object` is not a
    /// JSON value. The inverse of `foundationObject`: JSON booleans stay `.bool` (they are
    /// told apart from the numbers 0 and 1), every other number becomes `.number`.
    package init?(foundationObject object: Any) {
        switch object {
        case is NSNull:
            self = .null
        case let string as String:
            self = .string(string)
        case let number as NSNumber:
            if JSONValue.isBoolean(number) {
                self = .bool(number.boolValue)
            } else {
                self = .number(number.doubleValue)
            }
        case let array as [Any]:
            var values: [JSONValue] = []
            values.reserveCapacity(array.count)
            for element in array {
                guard let value = JSONValue(foundationObject: element) else { return nil }
                values.append(value)
            }
            self = .array(values)
        case let dictionary as [String: Any]:
            guard let values = JSONValue.objectValues(foundationObject: dictionary) else { return nil }
            self = .object(values)
        default:
            return nil
        }
    }

    /// The value JSON `text` holds (an object, array or bare value), or nil when `text` is not JSON.
    package init?(parsing text: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
            return nil
        }
        self.init(foundationObject: object)
    }

    /// The members of a parsed JSON object, or nil when one of them is not a JSON value.
    package static func objectValues(foundationObject dictionary: [String: Any]) -> [String: JSONValue]? {
        var values: [String: JSONValue] = [:]
        values.reserveCapacity(dictionary.count)
        for (key, element) in dictionary {
            guard let value = JSONValue(foundationObject: element) else { return nil }
            values[key] = value
        }
        return values
    }

    /// This value with every NaN or infinite number replaced by `.null`, the only values JSON
    /// text cannot carry; everything else is unchanged.
    package func replacingNonFiniteNumbers() -> JSONValue {
        switch self {
        case .number(let value) where !value.isFinite: return .null
        case .null, .bool, .number, .string: return self
        case .array(let values): return .array(values.map { $0.replacingNonFiniteNumbers() })
        case .object(let values): return .object(values.mapValues { $0.replacingNonFiniteNumbers() })
        }
    }

    /// The class Foundation uses for JSON `true`/`false` (`__NSCFBoolean` on both Darwin and
    /// Linux), which is how a parsed boolean differs from a parsed 0 or 1.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    private static func isBoolean(_ number: NSNumber) -> Bool {
        ObjectIdentifier(type(of: number)) == booleanClass
    }
}
