// swift-tools-version:6.1
import PackageDescription

// Modules follow ../shared/DESIGN.md (docs/architecture.md says where we differ).
// Dependencies point down: APDU and KioskLog are pure Swift; SmartCard is the only
// module that talks to PC/SC, through CPCSCLite.

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "idkiosk",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "idkiosk", targets: ["idkiosk"]),
        .library(name: "SmartCard", targets: ["SmartCard"]),
        .library(name: "APDU", targets: ["APDU"]),
        .library(name: "ScanFlow", targets: ["ScanFlow"]),
        .library(name: "MRTD", targets: ["MRTD"]),
        .library(name: "Camera", targets: ["Camera"]),
        .library(name: "Flash", targets: ["Flash"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // C bindings
        .systemLibrary(
            name: "CPCSCLite",
            pkgConfig: "libpcsclite",
            providers: [.apt(["libpcsclite-dev"])]
        ),
        .target(name: "COpenSSL", linkerSettings: [.linkedLibrary("crypto")]),
        .systemLibrary(name: "CV4L2", providers: [.apt(["linux-libc-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),

        // Pure Swift
        .target(name: "APDU", swiftSettings: strict),
        .target(
            name: "MRTD",
            dependencies: ["APDU", "COpenSSL", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "KioskLog",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),

        // Devices
        .target(
            name: "SmartCard",
            dependencies: [
                "CPCSCLite", "APDU",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "VirtualCard",
            dependencies: ["APDU", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),

        .target(
            name: "Camera",
            dependencies: ["CV4L2", "CTurboJPEG", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "Flash",
            dependencies: ["CGPIOD", "ScanFlow", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),

        .target(
            name: "VirtualPassport",
            dependencies: ["APDU", "MRTD", "VirtualCard"],
            swiftSettings: strict
        ),

        // Flow
        .target(name: "ScanFlow", swiftSettings: strict),

        // Composition
        .target(
            name: "Station",
            dependencies: [
                "SmartCard", "APDU", "KioskLog",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "idkiosk",
            dependencies: [
                "Station", "SmartCard", "VirtualCard", "KioskLog", "APDU", "MRTD", "VirtualPassport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),

        // Benchmarks (make bench)
        .executableTarget(
            name: "PCSCBenchmark",
            dependencies: ["APDU", "SmartCard", "VirtualCard", "KioskTestKit", .product(name: "Logging", package: "swift-log")],
            path: "Benchmarks/PCSCBenchmark",
            swiftSettings: strict
        ),

        .executableTarget(
            name: "MRTDBenchmark",
            dependencies: ["MRTD", "VirtualPassport", "KioskTestKit"],
            path: "Benchmarks/MRTDBenchmark",
            swiftSettings: strict
        ),

        // Test support
        .target(
            name: "KioskTestKit",
            dependencies: ["APDU", "SmartCard", "VirtualCard", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(name: "APDUTests", dependencies: ["APDU", "KioskTestKit"], swiftSettings: strict),
        .testTarget(name: "SmartCardTests", dependencies: ["SmartCard", "KioskTestKit", "VirtualCard", "APDU"], swiftSettings: strict),
        .testTarget(name: "VirtualCardTests", dependencies: ["VirtualCard", "KioskTestKit", "APDU"], swiftSettings: strict),
        .testTarget(
            name: "KioskLogTests",
            dependencies: ["KioskLog", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(name: "StationTests", dependencies: ["Station", "KioskTestKit"], swiftSettings: strict),
        .testTarget(name: "idkioskTests", dependencies: ["KioskTestKit", "VirtualCard"], swiftSettings: strict),
        .testTarget(name: "ScanFlowTests", dependencies: ["ScanFlow"], swiftSettings: strict),
        .testTarget(name: "CameraTests", dependencies: ["Camera", "KioskTestKit"], swiftSettings: strict),
        .testTarget(
            name: "FlashTests",
            dependencies: ["Flash", "Camera", "KioskTestKit", "ScanFlow", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "VirtualPassportTests",
            dependencies: [
                "VirtualPassport", "MRTD", "SmartCard", "VirtualCard", "KioskTestKit", "APDU",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "MRTDTests",
            dependencies: [
                "MRTD", "APDU", "VirtualPassport", "VirtualCard", "KioskTestKit",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
    ]
)
