// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "idkiosk",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "APDU", targets: ["APDU"]),
        .library(name: "MRTD", targets: ["MRTD"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(name: "APDU", swiftSettings: strict),
        .testTarget(name: "APDUTests", dependencies: ["APDU"], swiftSettings: strict),
        .target(name: "COpenSSL", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "MRTD", dependencies: ["APDU", "COpenSSL"], swiftSettings: strict),
        .testTarget(name: "MRTDTests", dependencies: ["MRTD", "APDU"], swiftSettings: strict),
    ]
)
