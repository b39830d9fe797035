// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for the parsers that read untrusted input. Kept out of the root Package.swift so that a
// normal `swift build --build-tests` never tries to link them: they only link with `--sanitize=fuzzer`, which
// supplies `main`. Build and run them with `bash Tests/Fuzz/run.sh` (see README.md).
//
// The library targets are the real sources, reached through committed relative symlinks in Sources/
// (Sources/HTTPServer -> ../../../Sources/HTTPServer); the C targets are declared exactly as in the root package.

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// One executable per fuzzer: `Fuzz<Thing>` in Sources/Fuzz<Thing>/, with its corpus in Corpus/Fuzz<Thing>/.
func fuzzer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: dependencies + ["FuzzSupport"], swiftSettings: strict)
}

let package = Package(
    name: "grain-stories-fuzz",
    platforms: [.macOS(.v15)],
    targets: [
        // C libraries, as in the root package.
        .target(
            name: "CMicroHTTPD",
            linkerSettings: [.linkedLibrary("microhttpd")]
        ),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16")]),
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlienc", providers: [.apt(["libbrotli-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CDe265", pkgConfig: "libde265", providers: [.apt(["libde265-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),

        // The modules under test (symlinks to the root package's sources).
        .target(name: "ByteCompression", dependencies: ["CZlib", "CBrotli"], swiftSettings: strict),
        .target(name: "Logging", swiftSettings: strict),
        .target(name: "Units", swiftSettings: strict),
        .target(name: "WebAddresses", swiftSettings: strict),
        .target(name: "MappedFiles", swiftSettings: strict),
        .target(name: "Clocks", swiftSettings: strict),
        .target(
            name: "HTTPServer", dependencies: ["CMicroHTTPD", "ByteCompression", "Logging", "WebAddresses", "Clocks"], swiftSettings: strict),
        .target(name: "Crypto", dependencies: ["COpenSSL"], swiftSettings: strict),
        .target(
            name: "Imaging", dependencies: ["CTurboJPEG", "CJPEG", "CPNG", "CHeif", "CDe265", "CWebP", "CLCMS2", "Units", "MappedFiles"],
            swiftSettings: strict),
        .target(name: "HTMLRendering", swiftSettings: strict),
        .target(name: "ATProto", dependencies: ["Crypto"], swiftSettings: strict),

        // Shared helpers: input slicing and property checks that crash with a message.
        .target(name: "FuzzSupport", swiftSettings: strict),
        // The decoder properties every image-format target checks.
        .target(name: "FuzzDecoding", dependencies: ["Imaging", "FuzzSupport"], swiftSettings: strict),

        fuzzer("FuzzMultipart", ["HTTPServer"]),
        fuzzer("FuzzURLEncodedForm", ["HTTPServer"]),
        fuzzer("FuzzCookies", ["HTTPServer"]),
        fuzzer("FuzzExif", ["Imaging"]),
        fuzzer("FuzzJPEG", ["Imaging", "FuzzDecoding"]),
        fuzzer("FuzzHEIF", ["Imaging", "FuzzDecoding"]),
        fuzzer("FuzzWebP", ["Imaging", "FuzzDecoding"]),
        fuzzer("FuzzHTMLEscaping", ["HTMLRendering"]),
        fuzzer("FuzzATProtoSyntax", ["ATProto"]),
    ]
)
