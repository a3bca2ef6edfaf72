/// One entry of `captures` (docs/custom-dialects.md): on frames its `on` matcher accepts, lifts
/// values into per-connection variables for later templates (`${var.NAME}`). A path that
/// selects nothing (or `null`) leaves the variable as it was.
package struct CustomCaptureRule: Sendable {
    package let matcher: FrameMatcher
    package let assignments: [(name: String, path: FramePath)]

    /// Applies the rule to `frame`; returns whether its matcher accepted the frame.
    package func apply(to frame: InboundFrame, variables: inout [String: JSONValue]) -> Bool {
        guard matcher.matches(frame) else { return false }
        for (name, path) in assignments {
            if let value = path.first(in: frame), value != .null {
                variables[name] = value
            }
        }
        return true
    }
}
