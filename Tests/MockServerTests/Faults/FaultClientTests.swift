import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MockServer
import Testing
import ServiceReplayTestSupport

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

    /// Fault spec → curl's exit status, for every curl from 7.66 (the first to refuse HTTP/0.9 by default, so
    /// that `garbage` fails with 1 rather than printing the bytes) through 8.x. Observed with curl 7.88.1 on
    /// Debian 12; for curl 8 the code paths these faults reach are unchanged by curl's source (lib/http.c,
    /// lib/http_chunks.c, lib/transfer.c, read from the curl-8_0_0 to curl-8_21_0 tags): an answer with no
    /// complete header line is "Empty reply" (52), a cut header block is accepted (0), a non-HTTP first line
    /// on a fresh connection is "HTTP/0.9 not allowed" (1), a bad chunk size is a receive error (56), a body
    /// short of its `Content-Length` is a partial file (18). ``curlVersion`` gates the test on that range.
    static let curlExits: [(String, Set<Int32>)] = [
        ("refuse", [52, 56]),  // 52 when the close arrives before the request, 56 when the request meets an RST
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

    /// The curl tests run: the first of the usual places that holds one.
    static let curl = ["/usr/bin/curl", "/usr/local/bin/curl", "/opt/homebrew/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The major and minor version `curl --version` reports, or `nil` without a curl (or an unreadable answer).
    static let curlVersion: (major: Int, minor: Int)? = {
        guard let curl else { return nil }
        let pipe = Pipe()
        guard let process = try? ChildProcess(URL(fileURLWithPath: curl), ["--version"], output: pipe) else { return nil }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // "curl 7.88.1 (x86_64-pc-linux-gnu) libcurl/7.88.1 ..."
        let words = String(decoding: output, as: UTF8.self).split(separator: " ")
        guard words.count > 1, words[0] == "curl" else { return nil }
        let numbers = words[1].split(separator: ".").compactMap { Int($0) }
        return numbers.count >= 2 ? (numbers[0], numbers[1]) : nil
    }()

    /// Whether ``curlExits`` documents the curl installed: 7.66 to 8.x.
    static var curlIsDocumented: Bool {
        guard let version = curlVersion else { return false }
        return (version.major == 7 && version.minor >= 66) || version.major == 8
    }

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

    @Test(.enabled(if: curlIsDocumented, "needs curl 7.66 to 8.x, whose exit statuses the table documents"), arguments: curlExits)
    func curl_exitsWithTheDocumentedStatus(spec: String, exits: Set<Int32>) async throws {
        try await FaultWireTests.withFaultServer(spec) { _, url in
            let status = try await onThread {
                let curl = try ChildProcess(
                    URL(fileURLWithPath: Self.curl!),
                    [
                        "--silent", "--output", "/dev/null", "--max-time", String(Self.clientTimeout(for: spec)),
                        url.appendingPathComponent("thing").absoluteString,
                    ])
                curl.waitUntilExit()
                return curl.terminationStatus
            }
            #expect(exits.contains(status), "\(spec) made curl exit \(status)")
        }
    }
}
