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
        // A command-line stand-in for the app under UI test: ServiceKit and the app side of the routing, which
        // holds no server code. Its tests launch it as a child process with a server's launch environment.
        .executableTarget(
            name: "profiles-app",
            dependencies: ["GitHubProfiles", .product(name: "MockServerAppRouting", package: "ServiceReplay")],
            path: "Sources/ProfilesApp"),
        .testTarget(
            name: "GitHubProfilesTests",
            dependencies: [
                "GitHubProfiles",
                // Where its tests can start a process: not on iOS, whose UI tests launch an app instead.
                .target(name: "profiles-app", condition: .when(platforms: [.macOS, .linux])),
                .product(name: "MockServerTesting", package: "ServiceReplay"),
                .product(name: "MockServer", package: "ServiceReplay"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
