// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "vload",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "vload", targets: ["vload"]),
        // The fuzz targets as a program: a libFuzzer binary when built by scripts/fuzz.
        .executable(name: "vload-fuzz", targets: ["vload-fuzz"]),
        // No library products: every module is used only inside this package (`package` access).
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSndFile",
            pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]
        ),
        .systemLibrary(
            name: "CSampleRate",
            pkgConfig: "samplerate",
            providers: [.apt(["libsamplerate0-dev"])]
        ),
        // Opus for WebRTC audio (docs/webrtc.md): the caller's clips encoded once at load, agent
        // audio decoded to find its first voiced audio.
        .systemLibrary(
            name: "COpus",
            pkgConfig: "opus",
            providers: [.apt(["libopus-dev"])]
        ),
        // Rubber Band's tempo change without a change of pitch: callers who speak faster or slower
        // (docs/callers.md).
        .systemLibrary(
            name: "CRubberBand",
            pkgConfig: "rubberband",
            providers: [.apt(["librubberband-dev"])]
        ),
        // RTP packets and a stream's receive statistics (RFC 3550), as values with no I/O: the
        // media layer under the WebRTC transport (docs/webrtc.md).
        .target(name: "RTP"),
        // OpenSSL for the WebRTC transport: DTLS 1.2 with use_srtp, and HMAC-SHA1 for STUN.
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // libsrtp2 for the WebRTC transport's SRTP.
        .systemLibrary(
            name: "CSRTP",
            pkgConfig: "libsrtp2",
            providers: [.apt(["libsrtp2-dev"])]
        ),
        // libusrsctp for the WebRTC data channel's SCTP, in AF_CONN mode over the DTLS association.
        // No pkgConfig: usrsctp.pc's cflags (-DINET -DINET6) are flags SwiftPM refuses, and
        // usrsctp.h does not read them; the header is in /usr/include.
        .systemLibrary(
            name: "CUsrsctp",
            providers: [.apt(["libusrsctp-dev"])]
        ),
        // The WebRTC transport (docs/webrtc.md): STUN, SDP and the ICE agent as values, DTLS and
        // SRTP through OpenSSL and libsrtp2, the data channel's SCTP through libusrsctp with DCEP
        // as a value, and the channel handler that drives them over UDP.
        .target(
            name: "WebRTC",
            dependencies: [
                "RTP",
                "COpenSSL",
                "CSRTP",
                "CUsrsctp",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // The WebSocket transport in three modules: what both sides use (the frame handler,
        // writer, masking, assembler, connection events, the monotonic clock and frames), the
        // client side (connect, handshake, TLS trust, the phases' stamps, REST) and the server
        // side (listener, upgrade decisions, plain HTTP). Neither side imports the other.
        .target(
            name: "WSCore",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        .target(
            name: "WSClient",
            dependencies: [
                "WSCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .target(
            name: "WSServer",
            dependencies: [
                "WSCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .target(
            name: "VoiceLoad",
            dependencies: [
                "WSCore",
                "WSClient",
                "WSServer",
                "WebRTC",
                "RTP",
                "CSndFile",
                "CSampleRate",
                "COpus",
                "CRubberBand",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        // The built-in simulator's greeting and reply, compiled into the binary (a module of
        // its own: compiling them is slow, and is then done once per build folder).
        .target(
            name: "SimulatorAudio",
            resources: [.embedInCode("Resources/agent-greeting.wav"), .embedInCode("Resources/agent-reply.wav")]
        ),
        .target(
            name: "AgentSimulator",
            dependencies: [
                "SimulatorAudio",
                "VoiceLoad",
                "WSCore",
                "WSClient",
                "WSServer",
                "WebRTC",
                "RTP",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "vload",
            dependencies: [
                "VoiceLoad",
                "WSCore",
                "WSClient",
                "WSServer",
                "AgentSimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The built-in simulator from a synchronous main, for valgrind (bench/sim-callgrind.sh).
        .executableTarget(
            name: "vload-sim-profile",
            dependencies: ["AgentSimulator", "VoiceLoad", .product(name: "NIOPosix", package: "swift-nio")],
            path: "bench/sim-profile"
        ),
        // The cost of Opus at load and per second of agent audio (BENCHMARKS.md, "Opus at load").
        .executableTarget(name: "vload-opus-bench", dependencies: ["VoiceLoad"], path: "bench/opus-cost"),
        // The WebRTC transport on its own against a peer on stdin and stdout, or a Pipecat
        // SmallWebRTC bot's /api/offer: the conformance suite's live tests against aiortc and
        // Pipecat, and BENCHMARKS.md's connect times (docs/webrtc.md).
        .executableTarget(
            name: "vload-webrtc-probe",
            dependencies: [
                "WebRTC",
                "RTP",
                "VoiceLoad",
                "WSCore",
                "WSClient",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "bench/webrtc-probe"
        ),
        // The CPU cost of a DTLS handshake and of SRTP per packet (BENCHMARKS.md, "WebRTC transport").
        .executableTarget(name: "vload-webrtc-bench", dependencies: ["WebRTC"], path: "bench/webrtc-cost"),
        // The fuzz targets: everything vload reads from outside, with its documented outcome.
        .target(
            name: "VoiceLoadFuzzing",
            dependencies: [
                "VoiceLoad",
                "RTP",
                "WebRTC",
                "WSCore",
                "WSClient",
                "WSServer",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        .executableTarget(name: "vload-fuzz", dependencies: ["VoiceLoadFuzzing", "VoiceLoad", "WSCore"]),
        // Shared by the test targets: the report's JSON Schema validator.
        .target(name: "TestSupport", dependencies: ["VoiceLoad", "WSCore"], path: "Tests/TestSupport"),
        .testTarget(
            name: "VoiceLoadTests",
            dependencies: [
                "VoiceLoad",
                "WSCore",
                "WSClient",
                "WSServer",
                "VoiceLoadFuzzing",
                "TestSupport",
                // The docs tests check every `vload` command line of docs/ and examples/ci/ against the CLI.
                "vload",
                "CSndFile",
                "RTP",
                "WebRTC",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(
            name: "AgentSimulatorTests",
            dependencies: ["AgentSimulator", "SimulatorAudio", "VoiceLoad", "WSCore", "WSClient", "WSServer"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "vload",
                "TestSupport",
                "VoiceLoad",
                "WSCore",
                "WSClient",
                "WSServer",
                "AgentSimulator",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
