// swift-tools-version:6.0
import PackageDescription

// An app's package adopting MockServer the way any other would: by path here, by URL elsewhere.
let package = Package(
    name: "GitHubProfiles",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "GitHubProfiles", targets: ["GitHubProfiles"]),
    ],
    dependencies: [
        .package(name: "ServiceReplay", path: ".."),
    ],
    targets: [
        .target(name: "GitHubProfiles"),
        .testTarget(name: "GitHubProfilesTests", dependencies: [
            "GitHubProfiles",
            .product(name: "MockServerTesting", package: "ServiceReplay"),
            .product(name: "MockServer", package: "ServiceReplay"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
