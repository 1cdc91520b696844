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
        .library(name: "SmartCard", targets: ["SmartCard"]),
        .library(name: "APDU", targets: ["APDU"]),
        .library(name: "ScanFlow", targets: ["ScanFlow"]),
        .library(name: "MRTD", targets: ["MRTD"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // C bindings
        .systemLibrary(
            name: "CPCSCLite",
            pkgConfig: "libpcsclite",
            providers: [.apt(["libpcsclite-dev"])]
        ),
        .target(name: "COpenSSL", linkerSettings: [.linkedLibrary("crypto")]),

        // Pure Swift
        .target(name: "APDU", swiftSettings: strict),
        .target(
            name: "MRTD",
            dependencies: ["APDU", "COpenSSL", .product(name: "Logging", package: "swift-log")],
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
            name: "VirtualPassport",
            dependencies: ["APDU", "MRTD", "VirtualCard"],
            swiftSettings: strict
        ),

        // Flow
        .target(name: "ScanFlow", swiftSettings: strict),

        // Composition

        // Benchmarks
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
        .testTarget(name: "ScanFlowTests", dependencies: ["ScanFlow"], swiftSettings: strict),
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
