/// The built-in agent simulator's greeting and reply, whole WAV files (24 kHz mono PCM16, made
/// by scripts/make-audio.sh), compiled into the binary by SwiftPM's `embedInCode` rule: a
/// `vload` copied alone to another folder or machine carries them (README.md, "One file to copy").
///
/// A module of its own because compiling the embedded bytes is slow (about 100 s of CPU in a
/// release build, 150 s in a debug one): it is done once per build folder, not again whenever
/// the simulator's code changes.
package enum SimulatorAudio {
    /// `Resources/agent-greeting.wav`, the file's bytes.
    package static var greetingWAV: [UInt8] { PackageResources.agent_greeting_wav }
    /// `Resources/agent-reply.wav`, the file's bytes.
    package static var replyWAV: [UInt8] { PackageResources.agent_reply_wav }
}
