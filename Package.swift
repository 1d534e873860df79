// swift-tools-version:6.0
import PackageDescription

// Every target gets the same strict settings; Swift 6 mode already implies complete concurrency checking.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ServiceReplay",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ServiceKit", targets: ["ServiceKit"]),
        .library(name: "MockServer", targets: ["MockServer"]),
        .executable(name: "recorder", targets: ["recorder"]),
    ],
    targets: [
        .target(name: "ServiceKit", swiftSettings: strictSettings),
        .target(name: "MockServer", swiftSettings: strictSettings),
        .executableTarget(name: "recorder", dependencies: ["MockServer"], swiftSettings: strictSettings),
        .executableTarget(name: "mockserver-bench", dependencies: ["MockServer"], path: "Tests/Benchmarks/Server", swiftSettings: strictSettings),
        .testTarget(name: "ServiceKitTests", dependencies: ["ServiceKit"], swiftSettings: strictSettings),
        .testTarget(name: "MockServerTests", dependencies: ["MockServer"], swiftSettings: strictSettings),
        .testTarget(name: "recorderTests", dependencies: ["recorder", "MockServer"], swiftSettings: strictSettings),
        .testTarget(name: "ServicesReplayTests", dependencies: ["ServiceKit", "MockServer"], swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
