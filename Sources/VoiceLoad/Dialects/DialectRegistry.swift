/// The dialects vload speaks, by their command-line id.
public enum DialectRegistry {
    /// Every registered dialect id, in the order they are listed to users.
    public static let ids: [String] = ["adk-events", "adk-legacy", "adk-seed", "datagrid", "smallest-atoms"]

    /// The client side of dialect `id`, with its default options.
    public static func client(_ id: String) throws(UnknownDialectError) -> any ClientDialect {
        switch id {
        case "adk-events": return ADKClientDialect(variant: .events)
        case "adk-legacy": return ADKClientDialect(variant: .legacy)
        case "adk-seed": return ADKClientDialect(variant: .seed)
        case "datagrid": return DatagridClientDialect()
        case "smallest-atoms": return SmallestAtomsClientDialect()
        default: throw UnknownDialectError(id: id, knownIDs: ids)
        }
    }

    /// The server side of dialect `id` (for the agent simulator), with its default options.
    public static func server(_ id: String) throws(UnknownDialectError) -> any ServerDialect {
        switch id {
        case "adk-events": return ADKServerDialect(variant: .events)
        case "adk-legacy": return ADKServerDialect(variant: .legacy)
        case "adk-seed": return ADKServerDialect(variant: .seed)
        case "datagrid": return DatagridServerDialect()
        case "smallest-atoms": return SmallestAtomsServerDialect()
        default: throw UnknownDialectError(id: id, knownIDs: ids)
        }
    }
}

/// A dialect id that is not registered.
public struct UnknownDialectError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The id that was asked for.
    public let id: String
    /// The registered ids.
    public let knownIDs: [String]

    public init(id: String, knownIDs: [String]) {
        self.id = id
        self.knownIDs = knownIDs
    }

    /// One line: `unknown dialect 'x' (known: datagrid)`.
    public var description: String {
        "unknown dialect '\(id)' (known: \(knownIDs.joined(separator: ", ")))"
    }
}
