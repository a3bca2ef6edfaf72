import Yams

/// YAML text composed into its root node for the scenario and dialect readers, which take no
/// anchors or aliases.
///
/// Yams resolves an alias to the node it names, so a few nested aliases (`b: [*a, *a, *a]`,
/// `c: [*b, *b, *b]`…) make a tree exponentially larger than its text, which reading it would
/// expand (a billion laughs). The first anchored node is found without expanding any alias.
enum YAMLComposer {
    /// The root node of `yaml` (nil for an empty document) and its first node with an anchor,
    /// if any: an anchored node or an alias to one.
    static func compose(_ yaml: String) throws -> (root: Node?, anchored: Node?) {
        let parser = try Parser(yaml: yaml)
        let root = try parser.singleRoot()
        // Nodes hold their anchors weakly; the parser keeps them alive until it goes.
        return withExtendedLifetime(parser) { (root, root.flatMap(firstAnchored)) }
    }

    /// The first node of `root` in document order that has an anchor. Every node visited
    /// before it has none, so is not an alias: the walk is linear in the text.
    private static func firstAnchored(in root: Node) -> Node? {
        var pending = [root]
        while let node = pending.popLast() {
            if node.anchor != nil { return node }
            switch node {
            case .scalar, .alias:
                continue
            case .sequence(let sequence):
                pending += sequence.reversed()
            case .mapping(let mapping):
                for (key, value) in mapping.reversed() { pending += [value, key] }
            }
        }
        return nil
    }
}
