import Foundation
import VoiceLoad
import VoiceLoadFuzzing

/// libFuzzer's callback: runs one input (`Fuzzing.run`, the first byte choosing the target)
/// and aborts on a broken property, so that libFuzzer keeps the input as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let outcome = Fuzzing.run(input)
    if !outcome.violations.isEmpty {
        FileHandle.standardError.write(Data(("vload-fuzz: property broken:\n" + outcome.violations.joined(separator: "\n") + "\n").utf8))
        abort()
    }
    return 0
}

#if VLOAD_LIBFUZZER
/// libFuzzer's driver (compiler-rt, linked by `-sanitize=fuzzer`). SwiftPM names the program's
/// entry point itself, so libFuzzer's own `main` is not used: `main` hands over to the driver.
@_silgen_name("LLVMFuzzerRunDriver")
func runLibFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif
