// swift-tools-version:6.0
import PackageDescription

// Every library target builds in Swift 6 language mode with these upcoming features on.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "grain-stories",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "grain-stories", targets: ["grain-stories"])
    ],
    targets: [
        // C libraries from Debian, each wrapped by exactly one Swift module.
        .target(
            name: "CMicroHTTPD",
            linkerSettings: [.linkedLibrary("microhttpd")]
        ),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // libpng's low-level reader behind setjmp-safe C functions (Sources/CPNG/shim.c).
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16")]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("curl")]
        ),

        // Layers.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"], swiftSettings: strict),
        .target(name: "Storage", dependencies: ["CSQLite"], swiftSettings: strict),
        .target(name: "Crypto", dependencies: ["COpenSSL"], swiftSettings: strict),
        .target(
            name: "Imaging", dependencies: ["CTurboJPEG", "CPNG", "CHeif", "CWebP", "CLCMS2"], swiftSettings: strict),
        .target(name: "HTMLRendering", swiftSettings: strict),
        .target(name: "Geo", swiftSettings: strict),
        .target(name: "Outbound", dependencies: ["CCurl"], swiftSettings: strict),
        .target(name: "Places", dependencies: ["Outbound"], swiftSettings: strict),
        .target(name: "ATProto", dependencies: ["Crypto"], swiftSettings: strict),
        .target(name: "Lexicon", dependencies: ["ATProto"], swiftSettings: strict),
        .target(name: "HatkClient", dependencies: ["Lexicon", "ATProto", "Crypto", "Outbound"], swiftSettings: strict),
        .target(
            name: "Backend",
            dependencies: ["HTTPServer", "Storage", "Crypto", "Imaging", "ATProto", "Lexicon"],
            swiftSettings: strict
        ),
        .target(
            name: "AuthServer", dependencies: ["HTTPServer", "Storage", "Crypto", "ATProto", "Backend"],
            swiftSettings: strict),
        .target(
            name: "App",
            dependencies: [
                "HTTPServer", "HTMLRendering", "HatkClient", "Lexicon", "ATProto", "Backend", "AuthServer", "Storage", "Crypto",
                "Imaging", "Geo", "Places", "Outbound",
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "grain-stories", dependencies: ["App"], swiftSettings: strict),

        // Tests mirror Sources/.
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage"]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging"]),
        .testTarget(name: "GeoTests", dependencies: ["Geo"]),
        .testTarget(name: "PlacesTests", dependencies: ["Places", "HTTPServer"]),
        .testTarget(name: "OutboundTests", dependencies: ["Outbound", "HTTPServer"]),
        .testTarget(name: "HTMLRenderingTests", dependencies: ["HTMLRendering"]),
        .testTarget(name: "ATProtoTests", dependencies: ["ATProto"]),
        .testTarget(name: "HatkClientTests", dependencies: ["HatkClient", "HTTPServer", "Crypto", "Lexicon", "ATProto"]),
        .testTarget(name: "BackendTests", dependencies: ["Backend", "HTTPServer", "Imaging"]),
        .testTarget(name: "AuthServerTests", dependencies: ["AuthServer", "Backend", "HTTPServer", "Crypto", "ATProto"]),
        .testTarget(
            name: "AppTests", dependencies: ["App", "Backend", "HTTPServer", "HatkClient", "Storage", "Outbound"],
            exclude: ["__Snapshots__", "Browser"]),
    ]
)
