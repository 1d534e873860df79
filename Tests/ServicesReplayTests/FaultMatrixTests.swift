import Foundation
@testable import MockServer
import ServiceKit
import ServiceKitTesting
import ServiceReplayTesting
import ServiceReplayShared
import Testing
import ServiceReplayTestSupport

/// Every service × every fault kind → the exact error family and case, through real loopback HTTP and
/// URLSession: the product's ``FaultMatrix`` run for each service, its family-level defaults pinned to exact
/// cases by overrides. The network-level expectations are exact for Linux (FoundationNetworking over libcurl), whose
/// URLError codes `Tests/MockServerTests/Faults/FaultClientTests.swift` pins; on Apple platforms a reply broken
/// off may be a lost connection instead (see ``brokenReply(linux:)``), which was not observed here.
@Suite(.timeLimit(.minutes(1))) struct FaultMatrixTests {
    /// What a call must end in.
    enum Expected: Sendable, CustomStringConvertible {
        /// The same typed value as without faults (the fault slows the answer but does not break it).
        case sameValue
        /// Exactly this error.
        case error(WebServiceError.Reason)
        /// Either error: which one depends on timing, and both are documented.
        case either(WebServiceError.Reason, WebServiceError.Reason)

        var description: String {
            switch self {
            case .sameValue: "the fault-free value"
            case .error(let reason): reason.caseName
            case .either(let first, let second): "\(first.caseName) or \(second.caseName)"
            }
        }

        /// The same expectation for ``FaultMatrix``.
        var matrixExpectation: FaultMatrix.Expectation {
            switch self {
            case .sameValue: .baselineValue
            case .error(let reason): .error(reason)
            case .either(let first, let second): .oneOf([first, second])
            }
        }
    }

    /// One row: a call, the fault spec it runs under, and what it must end in.
    struct Row: Sendable, CustomTestStringConvertible {
        let call: ServiceCall
        let fault: String
        let expected: Expected

        var testDescription: String { "\(call.name) × \(fault) → \(expected)" }
    }

    /// A reply broken off: `linux` exactly on Linux; on Apple platforms `connectionLost` or `badResponse`,
    /// because Apple's URLSession reports such a reply as `networkConnectionLost` (-1005), like a reset, or as
    /// `cannotParseResponse` (-1017) / `badServerResponse` (-1011), by the documentation of those codes.
    static func brokenReply(linux: WebServiceError.Reason) -> Expected {
        #if canImport(FoundationNetworking)
        .error(linux)
        #else
        .either(.network(.connectionLost), .network(.badResponse))
        #endif
    }

    /// Network- and HTTP-level faults: the same expectation for every service.
    static let everyAPI: [(fault: String, expected: Expected)] = {
        var rows: [(fault: String, expected: Expected)] = [
            // Closed on accept: libcurl reports a lost connection or an empty reply, depending on whether
            // the request was written before the close arrived.
            ("refuse", .either(.network(.connectionLost), .network(.badResponse))),
            ("reset", .error(.network(.connectionLost))),
            ("empty", brokenReply(linux: .network(.badResponse))),
            ("truncate=status-line", brokenReply(linux: .network(.badResponse))),
            ("truncate=body:10", brokenReply(linux: .network(.badResponse))),
            ("malformed-chunk", brokenReply(linux: .network(.badResponse))),
            ("garbage", brokenReply(linux: .network(.badResponse))),
            ("stall", .error(.network(.timedOut))),
            ("latency=150ms", .sameValue),
            ("latency=50..250ms", .sameValue),
            ("throttle=64KB/s", .sameValue),
            ("status=500", .error(.service(.httpStatus(500, message: "Internal Server Error")))),
            ("status=502", .error(.service(.httpStatus(502, message: "Bad Gateway")))),
            ("status=503", .error(.service(.httpStatus(503, message: "Service Unavailable")))),
            ("status=504", .error(.service(.httpStatus(504, message: "Gateway Timeout")))),
            ("status=429", .error(.service(.rateLimited(retryAfter: 1)))),
            ("status=429,retry-after=7", .error(.service(.rateLimited(retryAfter: 7)))),
            ("corrupt-body", .error(.service(.undecodableBody))),
            ("empty-body", .error(.service(.undecodableBody))),
            ("content-type=text/html", .error(.service(.wrongContentType("text/html")))),
        ]
        // Elsewhere than FoundationNetworking, the connection closing mid-headers is a lost connection or a bad response.
        if !URLSessionQuirks.trapsOnTruncatedHeaders {
            rows.append(("truncate=headers", .either(.network(.connectionLost), .network(.badResponse))))
        }
        return rows
    }()

    /// Service-level faults: each API's own error templates, from its cassette.
    static let serviceLevel: [Row] = [
        Row(
            call: .login, fault: "service-error=invalid_credentials",
            expected: .error(.service(.httpStatus(401, message: "The username or password is incorrect.")))),
        Row(
            call: .stackExchange, fault: "service-error=bad_parameter",
            expected: .error(.service(.httpStatus(400, message: "site is required")))),
        Row(
            call: .stackExchange, fault: "service-error=access_token_required",
            expected: .error(.service(.httpStatus(400, message: "an access_token is required to call this method")))),
        Row(
            call: .stackExchange, fault: "service-error=internal_error",
            expected: .error(.service(.httpStatus(400, message: "an unexpected error occurred while processing the request")))),
        Row(
            call: .stackExchange, fault: "service-error=no_method",
            expected: .error(.service(.httpStatus(400, message: "no method found with this name")))),
        Row(call: .stackExchange, fault: "service-error=throttle_violation", expected: .error(.service(.rateLimited(retryAfter: 81_732)))),
        Row(call: .stackExchange, fault: "service-error=throttle_violation_in_200", expected: .error(.service(.rateLimited(retryAfter: 81_732)))),
        Row(call: .gitHubUsers, fault: "service-error=not_found", expected: .error(.service(.httpStatus(404, message: "Not Found")))),
        Row(call: .gitHubUsers, fault: "service-error=rate_limit", expected: .error(.service(.rateLimited(retryAfter: 3600)))),
        Row(call: .gitHubUsers, fault: "service-error=rate_limit_429", expected: .error(.service(.rateLimited(retryAfter: 3600)))),
        Row(call: .gitHubUsers, fault: "service-error=secondary_rate_limit", expected: .error(.service(.rateLimited(retryAfter: 60)))),
        Row(call: .gitHubUser, fault: "service-error=not_found", expected: .error(.service(.httpStatus(404, message: "Not Found")))),
        Row(call: .gitHubUser, fault: "service-error=rate_limit", expected: .error(.service(.rateLimited(retryAfter: 3600)))),
        Row(call: .gitHubUser, fault: "service-error=rate_limit_429", expected: .error(.service(.rateLimited(retryAfter: 3600)))),
        Row(call: .gitHubUser, fault: "service-error=secondary_rate_limit", expected: .error(.service(.rateLimited(retryAfter: 60)))),
        Row(call: .friends, fault: "service-error=invalid_token", expected: .error(.service(.httpStatus(401, message: "Invalid token")))),
        Row(
            call: .feed, fault: "service-error=maintenance",
            expected: .error(
                .service(
                    .errorPayload(
                        code: "maintenance", message: "Feeds are down for scheduled maintenance. Please try again in a few minutes.")))),
        Row(
            call: .upload, fault: "service-error=photo_too_large",
            expected: .error(.service(.httpStatus(413, message: "Photos must be under 10 MB.")))),
    ]

    /// The suite's exact expectations for `call`, as overrides of the matrix's family-level defaults: every
    /// row of ``everyAPI``, and the call's rows of ``serviceLevel``.
    static func overrides(for call: ServiceCall) -> [FaultMatrix.Override] {
        let pinned = "pinned by the suite"
        return everyAPI.map { FaultMatrix.Override.expect($0.fault, $0.expected.matrixExpectation, because: pinned) }
            + serviceLevel.filter { $0.call.name == call.name }.map { .expect($0.fault, $0.expected.matrixExpectation, because: pinned) }
    }

    @Test(arguments: ServiceCall.everyService)
    func call_underEveryFault_endsInTheExpectedCase(call: ServiceCall) async throws {
        // Given the call's matrix with the suite's exact expectations, a client whose timeout is short (stalls
        // end quickly as `.timedOut`) and the call's common parameters
        let client: @Sendable (URL) -> WebServiceClient = { baseURL in
            WebServiceClient(baseURL: baseURL, configuration: .init(commonParameters: call.commonParameters, timeout: ReplayTimeout.stall))
        }

        // When the call runs once under each fault, each on a fresh server of its cassette
        let report = try await TestEnvironment.isolated {
            try await FaultMatrix.run(
                call.name, replaying: call.cassette, in: Recordings.folder, idempotent: call.method.isIdempotent,
                client: client, overrides: Self.overrides(for: call), margin: .seconds(60)
            ) { client in
                switch await call.perform(client) {
                case .value(let value): return ComparableValue(value)
                case .failure(let error): throw error
                }
            }
        }

        // Then every fault was injected and every call ended as its row says, within the client's timeout plus
        // the margin; every pinned row ran
        #expect(report.failures.isEmpty, "\(report)")
        let ran = Set(report.rows.map(\.case.fault))
        for override in Self.everyAPI.map(\.fault) + Self.serviceLevel.filter({ $0.call.name == call.name }).map(\.fault) {
            #expect(ran.contains(override), "\(override) did not run for \(call.name)")
        }
        print("fault matrix: \(call.name), \(report.rows.count) faults, \(report.failures.count) failed, in \(report.elapsed)")
    }

    @Test(arguments: ServiceCall.everyService)
    func call_withNothingListening_cannotConnect(call: ServiceCall) async throws {
        // Given a loopback port nobody listens on
        let port = try ReservedPort()
        let client = WebServiceClient(
            baseURL: port.baseURL,
            configuration: .init(
                commonParameters: call.commonParameters,
                timeout: ReplayTimeout.answer, clock: VirtualClock()))

        // When the call is sent there
        let outcome = await call.perform(client)

        // Then the connection is refused: cannot connect
        #expect(outcome.reason == .network(.cannotConnect), "ended in \(outcome)")
    }
}

/// A call's value as the matrix compares it: equal when the erased values are.
struct ComparableValue: Equatable, @unchecked Sendable {
    // Unchecked: built only from the `Hashable & Sendable` values of ``CallOutcome/value(_:)``.
    let value: AnyHashable

    init(_ value: any Hashable & Sendable) {
        self.value = AnyHashable(value)
    }
}
