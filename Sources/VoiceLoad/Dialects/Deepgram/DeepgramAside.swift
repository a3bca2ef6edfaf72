/// A line the Deepgram voice agent speaks that is not the answer (docs/dialects.md): the
/// assistant's `ConversationText` whose `conversational_behavior` is `backchannel` (a short
/// acknowledgement while the user holds the floor), `filler` (covering a wait on a function
/// call) or `presence_check` (after a long silence), as deepgram-sdk 7.16's
/// `AgentV1ConversationTextConversationalBehavior` defines them. `default`, or no field (older
/// and self-hosted servers), is a standard turn.
///
/// From that line to its `AgentAudioDone`, the agent's audio and speaking events belong to the
/// aside, and the `LatencyReport` that follows it too: none of them starts, times or ends the
/// turn that answers the caller.
enum DeepgramAside: Sendable, Hashable {
    /// No aside: the agent's audio is the answer.
    case none
    /// The aside's line arrived; its audio plays until its `AgentAudioDone`.
    case speaking
    /// Its `AgentAudioDone` arrived; a `LatencyReport` now would be the aside's.
    case ended

    static let assistantRole = "assistant"
    static let behaviorKey = "conversational_behavior"
    /// The behaviors that are not the answer.
    static let asideBehaviors: Set<String> = ["backchannel", "filler", "presence_check"]

    /// The state after an assistant line with this `conversational_behavior`.
    init(behavior: String?) {
        self = behavior.map { Self.asideBehaviors.contains($0) } == true ? .speaking : .none
    }

    /// Whether agent audio now is the aside's.
    var ownsAudio: Bool { self == .speaking }

    /// What `message` means when it belongs to the aside: nothing (and the state moves on);
    /// nil when it is not the aside's, to be read as usual.
    mutating func take(_ message: DeepgramMessage) -> [NormalizedEvent]? {
        typealias Name = DeepgramMessage.Name
        switch (self, message.type) {
        case (.speaking, Name.agentStartedSpeaking):
            return []
        case (.speaking, Name.agentAudioDone):
            self = .ended
            return []
        case (.ended, Name.latencyReport):
            self = .none
            return []
        case (.ended, Name.agentStartedSpeaking), (.ended, Name.userStartedSpeaking):
            self = .none
            return nil
        default:
            return nil
        }
    }
}
