// swift-tools-version:6.1
import PackageDescription

// Modules follow ../shared/DESIGN.md (docs/architecture.md says where we differ).
// Dependencies point down: APDU, KioskLog and KioskTime are pure Swift; SmartCard is the only
// module that talks to PC/SC, through CPCSCLite.

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]
// The pixel work (Imaging, Vision) optimised in debug builds too: at -Onone its loops run
// ten times slower or worse, and make test runs it over thousands of generated frames.
let pixelWork: [SwiftSetting] = strict + [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "idkiosk",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "idkiosk", targets: ["idkiosk"]),
        .library(name: "SmartCard", targets: ["SmartCard"]),
        .library(name: "APDU", targets: ["APDU"]),
        .library(name: "ScanFlow", targets: ["ScanFlow"]),
        .library(name: "MRTD", targets: ["MRTD"]),
        .library(name: "Backend", targets: ["Backend"]),
        .library(name: "ReferenceBackend", targets: ["ReferenceBackend"]),
        .executable(name: "idkiosk-backend", targets: ["idkiosk-backend"]),
        .library(name: "Imaging", targets: ["Imaging"]),
        .library(name: "Vision", targets: ["Vision"]),
        .library(name: "Camera", targets: ["Camera"]),
        .library(name: "Flash", targets: ["Flash"]),
        .library(name: "Display", targets: ["Display"]),
        .library(name: "Capture", targets: ["Capture"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // Backend: the HTTP client (TLS, timeouts, pooling) and the reference server.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Only the FullFoundation trait: swift-configuration is not needed and costs build time.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // /metrics: swift-metrics rendered as Prometheus text.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Display: the WebSocket event stream (server) and its test client.
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // ReferenceBackend: PostgreSQL storage when a connection URL is configured.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // C bindings
        .systemLibrary(
            name: "CPCSCLite",
            pkgConfig: "libpcsclite",
            providers: [.apt(["libpcsclite-dev"])]
        ),
        .target(name: "COpenSSL", exclude: ["shared.h"], linkerSettings: [.linkedLibrary("crypto")]),
        // The issuer's and the chip's libcrypto calls, for test documents: VirtualPassport only.
        .target(name: "COpenSSLIssuer", dependencies: ["COpenSSL"], linkerSettings: [.linkedLibrary("crypto")]),
        // OpenPACE (Debian's libeac): the chip side of PACE, CA and secure messaging for the
        // independent test chip (OpenPACEChip); only tests link it.
        .target(name: "COpenPACE", linkerSettings: [.linkedLibrary("eac"), .linkedLibrary("crypto")]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CV4L2", providers: [.apt(["linux-libc-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "COpenJPEG", pkgConfig: "libopenjp2", providers: [.apt(["libopenjp2-7-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // libqrencode (LGPL-2.1+, linked dynamically): the Digital Identity hand-off's QR code.
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // Tesseract: only the vision benchmark's MRZ baseline links it.
        .systemLibrary(name: "CTesseract", pkgConfig: "tesseract", providers: [.apt(["libtesseract-dev"])]),
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        // OpenCV (Debian's 4.6) behind a C API: Vision's document finding and warping (core,
        // imgproc), the face's parallax (video, calib3d) and the Haar baseline (objdetect).
        .target(
            name: "COpenCV",
            // Optimised in debug builds too: the shim's own per-pixel loops (the sides' edge
            // search) at -O0 cost the rig VM's emulated analysis a frame in three.
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4", "-O2"])],
            linkerSettings: [
                .linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_core"),
                // faces: point tracking (video), the one-plane fit (calib3d), the benchmark's Haar baseline (objdetect)
                .linkedLibrary("opencv_video"), .linkedLibrary("opencv_calib3d"), .linkedLibrary("opencv_objdetect"),
            ]
        ),
        // dlib (Debian's 19.24): the face detector, landmarks and embeddings behind a C API.
        // Optimised in debug builds too: dlib's templates at -O0 take seconds per embedding.
        .target(
            name: "CDlib",
            cxxSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("dlib"), .linkedLibrary("blas"), .linkedLibrary("lapack")]
        ),
        // ZXing-C++ (Debian's 1.4, libzxing-dev, Apache-2.0): Vision's PDF417 reader behind a C API.
        .target(name: "CZXing", linkerSettings: [.linkedLibrary("ZXing")]),
        // libv4lconvert: only the camera benchmark's baseline links it.
        .systemLibrary(name: "CV4LConvert", pkgConfig: "libv4lconvert", providers: [.apt(["libv4l-dev"])]),

        // Pure Swift
        .target(name: "APDU", swiftSettings: strict),
        .target(name: "KioskTime", swiftSettings: strict),
        .target(
            name: "MRTD",
            dependencies: ["APDU", "COpenSSL", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // Frames, pixel formats, conversion, JPEG and JPEG 2000: no device, network or flow module.
        // QR codes (libqrencode) are drawn here too: a string in, modules and an image out.
        .target(name: "Imaging", dependencies: ["CTurboJPEG", "COpenJPEG", "CPNG", "CQREncode"], swiftSettings: pixelWork),
        // What a frame shows (documents, their MRZ); pure like Imaging: frames in, values out.
        .target(name: "Vision", dependencies: ["Imaging", "COpenCV", "CDlib", "CZXing"], swiftSettings: pixelWork),
        .target(
            name: "KioskLog",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),

        // Devices
        .target(
            name: "SmartCard",
            dependencies: [
                "CPCSCLite", "APDU", "KioskTime",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "VirtualCard",
            dependencies: ["APDU", "KioskTime", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),

        .target(
            name: "Camera",
            dependencies: ["CV4L2", "Imaging", "KioskTime", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "Flash",
            dependencies: ["CGPIOD", "KioskTime", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),

        // A test chip whose protocols are OpenPACE's, for the reader's interoperability tests.
        .target(name: "OpenPACEChip", dependencies: ["APDU", "COpenPACE", "VirtualCard"], swiftSettings: strict),
        .target(
            name: "VirtualPassport",
            dependencies: ["APDU", "MRTD", "VirtualCard", "Imaging", "COpenSSLIssuer"],
            swiftSettings: strict
        ),

        // Flow
        .target(name: "ScanFlow", swiftSettings: strict),

        // Storage
        .target(name: "SQLite", dependencies: ["CSQLite"], swiftSettings: strict),

        // Backend
        .target(
            name: "Backend",
            dependencies: [
                "SQLite", "COpenSSL", "KioskTime",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "ReferenceBackend",
            dependencies: [
                "Backend", "SQLite", "MRTD", "Imaging", "Vision", "KioskTime",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "idkiosk-backend",
            dependencies: [
                "ReferenceBackend", "Backend", "MRTD", "Vision",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),

        // Test support: the child process of the outbox's kill -9 test.
        .executableTarget(
            name: "outbox-drain-child",
            dependencies: [
                "Backend",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        // A timing harness, not a test: `swift run -c release BackendBenchmark`.
        .executableTarget(
            name: "BackendBenchmark",
            dependencies: [
                "Backend", "ReferenceBackend", "KioskTime",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Benchmarks/BackendBenchmark",
            swiftSettings: strict
        ),

        // Display: the local server (events WebSocket, preview, Default UI page).
        .target(
            name: "Display",
            dependencies: [
                "ScanFlow", "Imaging",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("UI")],
            swiftSettings: strict
        ),

        // Capture: the pipelines that turn devices into evidence (document, face, chip).
        .target(
            name: "Capture",
            dependencies: ["Imaging", "Vision", "Camera", "Flash", "SmartCard", "MRTD", "ScanFlow", "KioskTime", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),

        // Composition
        .target(
            name: "Station",
            dependencies: [
                "Capture", "Vision", "SmartCard", "APDU", "ScanFlow", "MRTD", "Flash", "Backend", "Display", "KioskTime",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "idkiosk",
            dependencies: [
                "Station", "Capture", "SmartCard", "VirtualCard", "KioskLog", "APDU", "MRTD", "VirtualPassport", "Imaging", "Vision", "Camera", "Flash", "KioskTime",
                "Backend",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),

        // Fuzzing (make fuzz): the parsers and analysis entry points; replays files in a normal build.
        // The station's inputs (display commands, configuration) in a binary of their own: linking
        // Station's dependencies would multiply the coverage counters libFuzzer scans per input.
        .target(name: "FuzzDriver", path: "Fuzz/FuzzDriver", swiftSettings: strict),
        .executableTarget(
            name: "idkiosk-fuzz",
            dependencies: ["FuzzDriver", "APDU", "Camera", "Imaging", "MRTD", "Vision", "VirtualPassport"],
            path: "Fuzz/idkiosk-fuzz",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "idkiosk-fuzz-station",
            dependencies: ["FuzzDriver", "Display", "Station"],
            path: "Fuzz/idkiosk-fuzz-station",
            swiftSettings: strict
        ),

        // Benchmarks (make bench)
        .executableTarget(
            name: "PCSCBenchmark",
            dependencies: ["APDU", "SmartCard", "VirtualCard", "KioskTestKit", "KioskTime", .product(name: "Logging", package: "swift-log")],
            path: "Benchmarks/PCSCBenchmark",
            swiftSettings: strict
        ),

        .executableTarget(
            name: "VisionBenchmark",
            dependencies: ["Vision", "Imaging", "Camera", "Capture", "Flash", "MRTD", "ScanFlow", "KioskTestKit", "CTesseract"],
            path: "Benchmarks/VisionBenchmark",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CameraBenchmark",
            dependencies: ["Imaging", "CV4LConvert", "KioskTime"],
            path: "Benchmarks/CameraBenchmark",
            swiftSettings: strict
        ),

        .executableTarget(
            name: "StationBenchmark",
            dependencies: [
                "Station", "Display", "ScanFlow", "KioskTestKit", "VirtualPassport", "KioskTime",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/StationBenchmark",
            swiftSettings: strict
        ),

        .executableTarget(
            name: "MRTDBenchmark",
            dependencies: ["MRTD", "VirtualPassport", "KioskTestKit", "KioskTime"],
            path: "Benchmarks/MRTDBenchmark",
            swiftSettings: strict
        ),

        // Test support
        .target(
            name: "KioskTestKit",
            dependencies: [
                "APDU", "VirtualCard", .product(name: "Logging", package: "swift-log"),
                // VisionDataSet, DocumentEvaluation and VisionCrops: the generated vision data
                // and the MRZ model, for tests and benchmarks; LivenessEvaluation reads MJPEG (Camera).
                "Imaging", "Vision", "Camera",
                // WebDriver: chromedriver's header lines ("Content-Length:249") defeat FoundationNetworking.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // LoopbackBackend: the reference backend on loopback, for the backend's and the station's tests.
                "Backend", "ReferenceBackend",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "APDUTests", dependencies: ["APDU"], swiftSettings: strict),
        .testTarget(name: "KioskTimeTests", dependencies: ["KioskTime", "KioskTestKit"], swiftSettings: strict),
        .testTarget(name: "SmartCardTests", dependencies: ["SmartCard", "KioskTestKit", "VirtualCard", "APDU"], swiftSettings: strict),
        .testTarget(name: "VirtualCardTests", dependencies: ["VirtualCard", "KioskTestKit", "APDU"], swiftSettings: strict),
        .testTarget(
            name: "KioskLogTests",
            dependencies: ["KioskLog", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "StationTests",
            dependencies: [
                "Station", "Capture", "Display", "KioskTestKit", "Backend", "ReferenceBackend", "ScanFlow", "MRTD", "VirtualPassport", "Imaging", "Camera", "Flash", "Vision",
                "KioskLog",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                // SupportBundleTests: the status server's /metrics beside a journey.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CaptureTests",
            dependencies: [
                "Capture", "KioskTestKit", "Imaging", "Vision", "Camera", "Flash", "ScanFlow", "MRTD", "SmartCard", "VirtualCard", "VirtualPassport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "idkioskTests",
            dependencies: ["KioskTestKit", "VirtualCard", "VirtualPassport", "MRTD", "Imaging", "Camera", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(name: "ScanFlowTests", dependencies: ["ScanFlow", "KioskTestKit"], swiftSettings: strict),
        .testTarget(
            name: "DisplayTests",
            dependencies: [
                "Display", "ScanFlow", "KioskTestKit", "Imaging",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "KioskTestKit"], swiftSettings: strict),
        .testTarget(name: "VisionTests", dependencies: ["Vision", "Imaging", "MRTD", "KioskTestKit"], swiftSettings: strict),
        .testTarget(name: "CameraTests", dependencies: ["Camera", "Imaging", "CV4L2", "KioskTestKit"], swiftSettings: strict),
        .testTarget(
            name: "FlashTests",
            dependencies: ["Flash", "Camera", "Imaging", "KioskTestKit", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "VirtualPassportTests",
            dependencies: [
                "VirtualPassport", "MRTD", "SmartCard", "VirtualCard", "KioskTestKit", "APDU", "Imaging", "OpenPACEChip",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MRTDTests",
            dependencies: [
                "MRTD", "APDU", "VirtualPassport", "KioskTestKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "BackendTests",
            dependencies: [
                "Backend", "KioskTestKit", "ReferenceBackend", "MRTD", "VirtualPassport", "Imaging", "Vision", "Camera", "outbox-drain-child", "idkiosk-backend",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
    ]
)
