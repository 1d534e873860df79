// swift-tools-version:6.1
import PackageDescription

// An app's package adopting MockServer the way any other would: by path here, by URL elsewhere.
let package = Package(
    name: "GitHubProfiles",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "GitHubProfiles", targets: ["GitHubProfiles"])
    ],
    dependencies: [
        .package(name: "ServiceReplay", path: "..")
    ],
    targets: [
        // The app's own code links only ServiceKit; the testing products go to the test target alone.
        .target(name: "GitHubProfiles", dependencies: [.product(name: "ServiceKit", package: "ServiceReplay")]),
        .testTarget(
            name: "GitHubProfilesTests",
            dependencies: [
                "GitHubProfiles",
                .product(name: "MockServerTesting", package: "ServiceReplay"),
                .product(name: "MockServer", package: "ServiceReplay"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
