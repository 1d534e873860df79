// swift-tools-version:6.1
import PackageDescription

// Every target gets the same strict settings; Swift 6 mode already implies complete concurrency checking.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    // `Swift6Runtime`, for `#available` and `@available`: the Apple releases whose runtime is Swift 6.0's (task
    // executors, `String(validating:as:)`). One spelling of the list, here, instead of one at each use.
    .enableExperimentalFeature("AvailabilityMacro=Swift6Runtime:macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0"),
]

let package = Package(
    name: "ServiceReplay",
    // One list for every target (SwiftPM has no per-target floors). These are ServiceKit's floors, the lowest
    // that `Task.sleep(for:)`, `Duration`, `ContinuousClock` and `TimeZone.gmt` allow. MockServer needs nothing
    // newer except task executors and `String(validating:as:)` (macOS 15 / iOS 18), which it uses behind
    // `#available` with a fallback. `.ci/portability` lists the newer APIs it refuses without a guard.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "ServiceKit", targets: ["ServiceKit"]),
        .library(name: "MockServer", targets: ["MockServer"]),
        .library(name: "MockServerTesting", targets: ["MockServerTesting"]),
        .library(name: "ServiceKitTesting", targets: ["ServiceKitTesting"]),
        .library(name: "ServiceReplayTesting", targets: ["ServiceReplayTesting"]),
        .library(name: "MockServerAppRouting", targets: ["MockServerAppRouting"]),
        .executable(name: "recorder", targets: ["recorder"]),
    ],
    targets: [
        // The package's one lock type, one URLSession delegate and the thread a URLProtocol calls its client
        // on, shared by the other modules without them depending on each other. Module names that apps may well have too (Shared, TestSupport) carry the
        // package's prefix.
        .target(name: "ServiceReplayShared", swiftSettings: strictSettings),
        .target(name: "ServiceKit", dependencies: ["ServiceReplayShared"], swiftSettings: strictSettings),
        // Example services (GitHub, Stack Exchange, the Nice API, chat completions): documentation of ServiceKit
        // and the fault matrix's subjects. Not a product: an app that links ServiceKit does not get them.
        .target(name: "ExampleServices", dependencies: ["ServiceKit"], swiftSettings: strictSettings),
        // MockServer's bottom layer: sockets, event loops, HTTP/1.1 framing and the error type every layer throws.
        // A target of its own so that the compiler refuses any reference from it to the layers above (issue 32);
        // not a product: MockServer re-exports it, so its users see the same names as before.
        .target(name: "MockServerWire", dependencies: ["ServiceReplayShared"], swiftSettings: strictSettings),
        .target(name: "MockServer", dependencies: ["MockServerWire", "ServiceReplayShared"], swiftSettings: strictSettings),
        // The app side of UI tests: linked by the app, it sends the app's requests to the test's server when
        // the launch environment says so. No server code: it must not depend on MockServer or MockServerWire.
        // Named for the server it routes to, as an app may well have a module "AppRouting" of its own.
        .target(name: "MockServerAppRouting", dependencies: ["ServiceReplayShared"], swiftSettings: strictSettings),
        // The Swift Testing trait `.mockServer(...)`; apart, so that MockServer itself never links Testing.
        .target(name: "MockServerTesting", dependencies: ["MockServer", "ServiceReplayShared"], swiftSettings: strictSettings),
        // Test doubles for apps' own ServiceKit tests: scripted transports (HTTP and WebSocket) instead of the network.
        .target(name: "ServiceKitTesting", dependencies: ["ServiceKit", "ServiceReplayShared"], swiftSettings: strictSettings),
        // For apps that use both libraries: a ServiceKit client against a MockServer replay, in one call.
        .target(
            name: "ServiceReplayTesting", dependencies: ["ServiceKit", "ServiceKitTesting", "MockServer", "MockServerTesting", "ServiceReplayShared"],
            swiftSettings: strictSettings),
        .executableTarget(name: "recorder", dependencies: ["MockServer", "ServiceReplayShared"], swiftSettings: strictSettings),
        .executableTarget(
            name: "mockserver-bench", dependencies: ["MockServer", "ServiceReplayShared"], path: "Tests/Benchmarks/Server", swiftSettings: strictSettings),
        // A stand-in for an app under UI test: activates MockServerAppRouting and sends the requests it is
        // given. The app-routing tests run it as a child process, since routing is process-wide.
        .executableTarget(
            name: "routing-probe", dependencies: ["MockServerAppRouting", "ServiceKit", "ServiceReplayShared"], path: "Tests/RoutingProbe",
            swiftSettings: strictSettings),
        .executableTarget(
            name: "servicekit-bench", dependencies: ["ServiceKit", "MockServer"],
            path: "Tests/Benchmarks/ServiceKit", swiftSettings: strictSettings),
        .testTarget(
            name: "ServiceKitTests", dependencies: ["ServiceKit", "ExampleServices", "ServiceKitTesting", "ServiceReplayShared", "ServiceReplayTestSupport"],
            swiftSettings: strictSettings),
        // Test-only helpers shared by the test targets: starting child processes without Foundation's Process.
        .target(name: "ServiceReplayTestSupport", dependencies: ["MockServer"], path: "Tests/TestSupport", swiftSettings: strictSettings),
        .testTarget(
            name: "MockServerTests", dependencies: ["MockServer", "MockServerWire", "MockServerTesting", "ServiceReplayShared", "ServiceReplayTestSupport"],
            swiftSettings: strictSettings),
        // The probe only where a test starts it as a child process (macOS, Linux): Xcode builds no command-line
        // executable for iOS, where the target keeps its in-process tests alone (the workflow's iOS routing job).
        .testTarget(
            name: "MockServerAppRoutingTests",
            dependencies: [
                "MockServerAppRouting", .target(name: "routing-probe", condition: .when(platforms: [.macOS, .linux])), "MockServer",
                "ServiceReplayShared", "ServiceReplayTestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "recorderTests", dependencies: ["recorder", "MockServer", "ServiceReplayShared", "ServiceReplayTestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "ServicesReplayTests",
            dependencies: [
                "ServiceKit", "ExampleServices", "ServiceKitTesting", "ServiceReplayTesting", "MockServer", "MockServerWire", "ServiceReplayShared",
                "ServiceReplayTestSupport",
            ], swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
