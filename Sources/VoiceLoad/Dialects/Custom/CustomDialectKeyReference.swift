import Foundation

/// Every key a dialect file may hold, place by place (`vload validate --keys`), made from the
/// same lists the loader checks files against (docs/custom-dialects.md#key-reference).
package enum CustomDialectKeyReference {
    /// The places of a dialect file and the keys each takes.
    package static var places: [(place: String, keys: String)] {
        typealias Loader = CustomDialectLoader
        var places: [(place: String, keys: String)] = [
            ("(top level)", Loader.topLevelKeys.joined(separator: ", ")),
            ("connect", Loader.connectKeys.joined(separator: ", ")),
            ("connect.pre_request", Loader.preRequestKeys.joined(separator: ", ")),
            ("audio", Loader.audioKeys.joined(separator: ", ")),
            ("audio.input", Loader.inputKeys.joined(separator: ", ")),
            ("audio.output", Loader.outputKeys.joined(separator: ", ")),
            ("audio.output.extract[]", Loader.extractKeys.joined(separator: ", ")),
            ("send", Loader.sendKeys.joined(separator: ", ")),
            ("send.keepalive", Loader.keepAliveKeys.joined(separator: ", ")),
            ("send.replies[]", Loader.replyKeys.joined(separator: ", ")),
            ("events", CustomEventName.declarable.map(\.rawValue).joined(separator: ", ") + " (each: one rule or a list)"),
        ]
        for name in CustomEventName.declarable {
            places.append(("events.\(name.rawValue)", (["match"] + name.fieldNames).joined(separator: ", ")))
        }
        places += [
            ("captures[]", Loader.captureKeys.joined(separator: ", ")),
            ("ignore[]", "matchers"),
            ("timing", Loader.timingKeys.joined(separator: ", ")),
            ("a matcher", "PATH: VALUE or PATH: {" + FrameMatcher.conditionNames.joined(separator: ", ") + "}; any: [matchers]"),
            ("a template", TemplatePlaceholder.knownNames),
        ]
        return places
    }

    /// The reference as printed, one place a line.
    package static var text: String {
        let width = places.map(\.place.count).max() ?? 0
        let lines = places.map { $0.place.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.keys }
        return (["Keys of a dialect file, by place (docs/custom-dialects.md#key-reference):"] + lines.map { "  " + $0 })
            .joined(separator: "\n")
    }
}
