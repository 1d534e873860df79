import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import Testing
import TestSupport

/// What real clients see for each network-level fault: URLSession's error code and curl's exit status.
/// The README's fault table is this test's table.
@Suite struct FaultClientTests {
    /// Fault spec → the URLError codes URLSession reports on Linux (FoundationNetworking over libcurl).
    /// Where the outcome depends on timing (is the request already written when the server closes?),
    /// every code seen is listed. Linux's only: the tests using it run where FoundationNetworking is.
    /// Apple's URLSession, by Apple's documentation of the codes (not observed: no Mac runs these tests),
    /// is expected to report what the comment on each row says.
    static let urlSessionCodes: [(String, Set<Int>)] = [
        // Darwin: networkConnectionLost (-1005)
        ("refuse", [URLError.badServerResponse.rawValue, URLError.networkConnectionLost.rawValue, URLError.unknown.rawValue]),
        // Darwin: networkConnectionLost (-1005)
        ("reset", [URLError.networkConnectionLost.rawValue]),
        // Darwin: networkConnectionLost (-1005), or badServerResponse (-1011)
        ("empty", [URLError.badServerResponse.rawValue]),
        // Darwin: cannotParseResponse (-1017), or networkConnectionLost (-1005)
        ("truncate=status-line", [URLError.badServerResponse.rawValue]),
        // truncate=headers is left out on purpose: FoundationNetworking traps ("Transfer completed, but
        // there's no response", swift-corelibs-foundation issue 5285) and takes the process down.
        // Darwin: networkConnectionLost (-1005) or cannotParseResponse (-1017).
        // Darwin: networkConnectionLost (-1005)
        ("truncate=body:10", [URLError.unknown.rawValue]),
        // Darwin: cannotParseResponse (-1017), or networkConnectionLost (-1005)
        ("malformed-chunk", [URLError.unknown.rawValue]),
        // Darwin: cannotParseResponse (-1017)
        ("garbage", [URLError.unsupportedURL.rawValue]),
        // Darwin: timedOut (-1001)
        ("stall", [URLError.timedOut.rawValue]),
    ]

    /// Fault spec → curl's exit status (curl 7.88 on Debian 12).
    static let curlExits: [(String, Set<Int32>)] = [
        ("refuse", [52, 56]),
        ("reset", [56]),
        ("empty", [52]),
        ("truncate=status-line", [52]),
        ("truncate=headers", [0]),  // curl accepts a header block cut short by the close
        ("truncate=body:10", [18]),
        ("malformed-chunk", [56]),
        ("garbage", [1]),
        ("stall", [28]),
        ("status=503", [0]),
    ]

    /// The client's timeout: short for `stall`, whose point is the timeout; generous for every other row, so
    /// that a loaded machine never turns a prompt answer into a timeout.
    static func clientTimeout(for spec: String) -> Int { spec == "stall" ? 1 : 15 }

    #if canImport(FoundationNetworking)
    @Test(arguments: urlSessionCodes)
    func urlSession_seesTheDocumentedError(spec: String, codes: Set<Int>) async throws {
        try await FaultWireTests.withFaultServer(spec) { _, url in
            let error = await #expect(throws: URLError.self) {
                try await withURLSession(timeout: TimeInterval(Self.clientTimeout(for: spec))) { session in
                    try await session.httpData(for: URLRequest(url: url.appendingPathComponent("thing")))
                }
            }
            #expect(codes.contains(error?.code.rawValue ?? 0), "\(spec) gave \(String(describing: error?.code.rawValue))")
        }
    }
    #endif

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")), arguments: curlExits)
    func curl_exitsWithTheDocumentedStatus(spec: String, exits: Set<Int32>) async throws {
        try await FaultWireTests.withFaultServer(spec) { _, url in
            let status = try await onThread {
                let curl = try ChildProcess(URL(fileURLWithPath: "/usr/bin/curl"),
                                            ["--silent", "--output", "/dev/null", "--max-time", String(Self.clientTimeout(for: spec)),
                                             url.appendingPathComponent("thing").absoluteString])
                curl.waitUntilExit()
                return curl.terminationStatus
            }
            #expect(exits.contains(status), "\(spec) made curl exit \(status)")
        }
    }
}
