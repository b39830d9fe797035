// swift-tools-version:6.0
import PackageDescription

// Every library target builds in Swift 6 language mode with these upcoming features on.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    // An import is internal unless marked `public import`, and a member is visible only where its module is imported.
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    // Generic code (the caches, the request path) specialised across modules in release builds, so no request looks
    // up generic metadata at run time (perf, BENCHMARKS.md).
    .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release)),
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
        // libjpeg's scanline decoder behind setjmp-safe C functions (Sources/CJPEG/shim.c), so JPEG rows stream
        // into the resampler; libturbojpeg (above) reads headers and encodes.
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        // HEVC decoding for libheif with a worker thread per core (libheif's own plugin starts one).
        .systemLibrary(name: "CDe265", pkgConfig: "libde265", providers: [.apt(["libde265-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("curl")]
        ),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlienc", providers: [.apt(["libbrotli-dev"])]),
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // Layers.
        .target(name: "Logging", swiftSettings: strict),
        .target(name: "Workers", swiftSettings: strict),
        // Byte counts as people read and write them (quotas, storage use).
        .target(name: "Units", swiftSettings: strict),
        // Counters and histograms for /metrics, in the Prometheus text format.
        .target(name: "Metrics", swiftSettings: strict),
        // The one bounded cache: least recently used out, an optional lifetime, one load per key for concurrent misses.
        .target(name: "Caching", swiftSettings: strict),
        .target(name: "ByteCompression", dependencies: ["CZlib", "CBrotli"], swiftSettings: strict),
        // The web's addresses, parsed once and strictly: origins (scheme, host, port), IPv4 and IPv6 addresses, CIDR ranges.
        .target(name: "WebAddresses", swiftSettings: strict),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "ByteCompression", "Logging", "WebAddresses", "Clocks"], swiftSettings: strict),
        .target(name: "Storage", dependencies: ["Caching", "CSQLite"], swiftSettings: strict),
        // The fronts' shared sessions (--sessions postgres://...), reading into Storage's rows.
        .target(name: "PostgresStorage", dependencies: ["CPostgres", "Storage"], swiftSettings: strict),
        // Consistent backups of a data directory (SQLite snapshots, blobs, a manifest), their checks and restores.
        .target(name: "Backups", dependencies: ["Storage", "Crypto", "Logging"], swiftSettings: strict),
        .target(name: "Crypto", dependencies: ["COpenSSL"], swiftSettings: strict),
        .target(
            name: "Imaging", dependencies: ["CTurboJPEG", "CJPEG", "CPNG", "CHeif", "CDe265", "CWebP", "CLCMS2", "Units", "MappedFiles"],
            swiftSettings: strict),
        // Debian's ffprobe and ffmpeg as bounded child processes: clips probed, checked and transcoded for stories.
        .target(name: "Video", dependencies: ["Logging"], swiftSettings: strict),
        .target(name: "HTMLRendering", swiftSettings: strict),
        // libqrencode, wrapped once: the kiosk's QR codes as SVG.
        .target(name: "QRCode", dependencies: ["CQRencode", "HTMLRendering"], swiftSettings: strict),
        .target(name: "Geo", swiftSettings: strict),
        .target(name: "Outbound", dependencies: ["CCurl", "WebAddresses"], swiftSettings: strict),
        .target(name: "Places", dependencies: ["Caching", "Outbound", "MappedFiles", "Clocks"], swiftSettings: strict),
        .target(name: "ATProto", dependencies: ["Crypto"], swiftSettings: strict),
        .target(name: "Lexicon", dependencies: ["ATProto"], swiftSettings: strict),
        // What the front reads stories through (StoryReading, SocialReading, MemoryReading) and how a read fails (ReadError),
        // whichever reader answers: the hatk client over HTTP, or the embedded backend in process.
        .target(name: "Readers", dependencies: ["Lexicon", "ATProto"], swiftSettings: strict),
        .target(
            name: "HatkClient", dependencies: ["Caching", "Lexicon", "ATProto", "Crypto", "Outbound", "Readers", "Clocks"], swiftSettings: strict),
        .target(
            name: "Backend",
            dependencies: ["HTTPServer", "Storage", "Crypto", "Imaging", "ATProto", "Lexicon", "Workers", "Logging", "Backups", "Units", "Video"],
            swiftSettings: strict
        ),
        // One monotonic clock for lifetimes, pacing and refreshes (the calendar is `() -> UTCTime`), injected so tests move it.
        .target(name: "Clocks", swiftSettings: strict),
        // A whole file mapped read-only, size-checked before it is mapped: the place table and uploaded photos.
        .target(name: "MappedFiles", swiftSettings: strict),
        // The counting core of every rate limit (sign-ins, PAR, uploads, previews), a value driven by the time it is given.
        .target(name: "RateLimits", swiftSettings: strict),
        .target(
            name: "AuthServer", dependencies: ["HTTPServer", "RateLimits", "Storage", "Crypto", "ATProto", "Workers", "Logging", "WebAddresses"],
            swiftSettings: strict),
        // The front's state: browser sessions, seen marks and rate limits, in front.sqlite or shared in PostgreSQL.
        .target(
            name: "FrontState",
            dependencies: ["Caching", "Storage", "PostgresStorage", "HatkClient", "Lexicon", "ATProto", "Crypto", "RateLimits", "Logging", "Clocks"],
            swiftSettings: strict
        ),
        // Posting a story, with no HTTP or page in sight: the image pipeline or a clip's transcode, the place name,
        // uploadBlob and createRecord upstream, and the form's place search and clip progress.
        .target(
            name: "Publishing",
            dependencies: ["ATProto", "Caching", "Geo", "HatkClient", "Imaging", "Lexicon", "Logging", "Places", "Units", "Video", "Workers"],
            swiftSettings: strict
        ),
        // The front alone: pages, sign-in, the upload forms (posting itself is Publishing's, sessions FrontState's). It reads
        // through StoryReading and never sees the backend.
        .target(
            name: "App",
            dependencies: [
                "Caching", "FrontState", "Publishing", "HTTPServer", "HTMLRendering", "HatkClient", "Readers", "Lexicon", "ATProto", "Crypto",
                "Imaging", "Geo", "Places", "Outbound", "Logging", "Workers", "Metrics", "Units", "QRCode", "Video", "WebAddresses", "Clocks",
            ],
            swiftSettings: strict
        ),
        // The composition root and the command line: builds the backend, the authorization server and the front.
        .target(
            name: "Server",
            dependencies: [
                "App", "FrontState", "Publishing", "Backend", "AuthServer", "HTTPServer", "HTMLRendering", "HatkClient", "Readers", "Lexicon",
                "ATProto", "Storage", "Crypto", "Imaging", "Geo", "Places", "Outbound", "Logging", "Backups", "Metrics", "Video", "WebAddresses",
                "Workers", "Clocks",
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "grain-stories", dependencies: ["Server"], swiftSettings: strict),

        // Tests mirror Sources/; TestSupport holds what several test targets share (a movable clock, temporary folders).
        .target(name: "TestSupport", dependencies: ["ATProto", "Clocks"], path: "Tests/TestSupport", swiftSettings: strict),
        .testTarget(name: "ClocksTests", dependencies: ["Clocks", "ATProto", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "WebAddressesTests", dependencies: ["WebAddresses"], swiftSettings: strict),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["HTTPServer", "ByteCompression", "RateLimits", "WebAddresses", "Clocks", "TestSupport"],
            swiftSettings: strict),
        .testTarget(name: "RateLimitsTests", dependencies: ["RateLimits"], swiftSettings: strict),
        .testTarget(name: "MappedFilesTests", dependencies: ["MappedFiles"], swiftSettings: strict),
        .testTarget(name: "ByteCompressionTests", dependencies: ["ByteCompression"], swiftSettings: strict),
        .testTarget(name: "StorageTests", dependencies: ["Storage"], swiftSettings: strict),
        .testTarget(name: "BackupsTests", dependencies: ["Backups", "Storage", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "PostgresStorageTests", dependencies: ["PostgresStorage", "Storage", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto"], swiftSettings: strict),
        // Test photos built from the specifications (EXIF, ICC, PNG) and by Debian's encoders, for the imaging and upload tests.
        .target(name: "ImageFixtures", dependencies: ["Imaging"], path: "Tests/ImageFixtures", swiftSettings: strict),
        // An authenticator for the embedded backend that checks real DPoP proofs on `test:<did>` tokens.
        .target(
            name: "BackendFixtures", dependencies: ["Backend", "Crypto", "ATProto", "HTTPServer", "HatkClient"], path: "Tests/BackendFixtures",
            swiftSettings: strict),
        .testTarget(
            name: "ImagingTests", dependencies: ["Imaging", "ImageFixtures", "CHeif", "CDe265", "CJPEG", "CTurboJPEG"], swiftSettings: strict),
        .testTarget(name: "GeoTests", dependencies: ["Geo"], swiftSettings: strict),
        .testTarget(name: "VideoTests", dependencies: ["Video", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "PlacesTests", dependencies: ["Places", "HTTPServer", "MappedFiles", "TestSupport", "Clocks"], swiftSettings: strict),
        .testTarget(name: "OutboundTests", dependencies: ["Outbound", "HTTPServer", "WebAddresses"], swiftSettings: strict),
        .testTarget(name: "HTMLRenderingTests", dependencies: ["HTMLRendering", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "Imaging"], swiftSettings: strict),
        .testTarget(name: "ATProtoTests", dependencies: ["ATProto"], swiftSettings: strict),
        .testTarget(name: "LexiconTests", dependencies: ["Lexicon", "ATProto"], swiftSettings: strict),
        .testTarget(name: "ReadersTests", dependencies: ["Readers"], swiftSettings: strict),
        .testTarget(
            name: "HatkClientTests",
            dependencies: ["HatkClient", "Readers", "HTTPServer", "Crypto", "Lexicon", "ATProto", "Backend", "BackendFixtures", "Imaging"],
            swiftSettings: strict),
        .testTarget(
            name: "BackendTests", dependencies: ["Backend", "Backups", "HTTPServer", "Imaging", "Storage", "TestSupport", "Units", "Video"],
            swiftSettings: strict),
        .testTarget(
            name: "AuthServerTests", dependencies: ["AuthServer", "HTTPServer", "Crypto", "ATProto", "Workers", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "WorkersTests", dependencies: ["Workers"], swiftSettings: strict),
        .testTarget(name: "MetricsTests", dependencies: ["Metrics"], swiftSettings: strict),
        .testTarget(name: "CachingTests", dependencies: ["Caching", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "UnitsTests", dependencies: ["Units"], swiftSettings: strict),
        .testTarget(name: "LoggingTests", dependencies: ["Logging"], swiftSettings: strict),
        .testTarget(
            name: "FrontStateTests",
            dependencies: ["FrontState", "Storage", "PostgresStorage", "HatkClient", "Lexicon", "ATProto", "Crypto", "Clocks", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "App", "FrontState", "Publishing", "HTTPServer", "HatkClient", "Readers", "HTMLRendering", "Lexicon", "ATProto", "Crypto",
                "Imaging", "Outbound", "Storage", "Geo", "QRCode", "TestSupport", "WebAddresses", "Workers",
            ],
            exclude: ["__Snapshots__"], swiftSettings: strict),
        .testTarget(
            name: "PublishingTests", dependencies: ["Publishing", "Geo", "Imaging", "Lexicon", "Places", "ATProto", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "Server", "App", "FrontState", "Backend", "AuthServer", "HTTPServer", "HatkClient", "Readers", "Lexicon", "ATProto", "Storage",
                "Outbound", "TestSupport", "Backups", "Metrics", "Logging", "Imaging", "ImageFixtures", "BackendFixtures", "Video",
            ],
            exclude: ["Browser", "Deployment"], swiftSettings: strict),
    ]
)
