import Foundation

/// A file error as one short line ("No such file or directory"), for the one-line input errors:
/// Foundation's own description of a file error spans a whole NSError dump.
package enum FileErrorText {
    package static func reason(of error: any Error) -> String {
        let nsError = error as NSError
        if let posix = posixCode(of: nsError) { return String(cString: strerror(posix)) }
        if let input = error as? InputError { return input.description }
        if let cocoa = error as? CocoaError, let text = cocoaText(cocoa.code) { return text }
        var text = nsError.localizedDescription
        if let dot = text.range(of: "The operation could not be completed. ") { text.removeSubrange(dot) }
        return text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
    }

    private static func cocoaText(_ code: CocoaError.Code) -> String? {
        switch code {
        case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
        case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
        case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
        case .fileWriteVolumeReadOnly: return String(cString: strerror(EROFS))
        case .fileWriteFileExists: return String(cString: strerror(EEXIST))
        default: return nil
        }
    }

    /// The POSIX error number behind a Foundation file error, if any.
    private static func posixCode(of error: NSError) -> Int32? {
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError { return posixCode(of: underlying) }
        return nil
    }
}

extension FileErrorText {
    /// Why a JSON file did not decode, in one line naming the field: "missing field 'sessions.started'",
    /// "field 'duration_s': expected a number", "not valid JSON".
    package static func decoding(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return reason(of: error) }
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            (codingPath + (last.map { [$0] } ?? [])).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field '\(path(context.codingPath, key))'"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return context.codingPath.isEmpty ? "not a JSON object" : "field '\(path(context.codingPath))': expected \(typeName(type))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "field '\(path(context.codingPath))': invalid value"
        @unknown default:
            return "cannot decode it"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type, is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        default: return "a value of type \(type)"
        }
    }
}
