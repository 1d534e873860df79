import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import Testing

@Suite struct URLErrorMappingTests {
    static let table: [(URLError.Code, WebServiceError.Network)] = [
        (.notConnectedToInternet, .notConnected), (.internationalRoamingOff, .notConnected),
        (.callIsActive, .notConnected), (.dataNotAllowed, .notConnected), (.cannotLoadFromNetwork, .notConnected),
        (.cannotFindHost, .cannotFindHost), (.dnsLookupFailed, .cannotFindHost),
        (.cannotConnectToHost, .cannotConnect), (.badURL, .cannotConnect), (.resourceUnavailable, .cannotConnect),
        (.userAuthenticationRequired, .cannotConnect), (.userCancelledAuthentication, .cannotConnect),
        (.fileDoesNotExist, .cannotConnect), (.fileIsDirectory, .cannotConnect),
        (.noPermissionsToReadFile, .cannotConnect), (.backgroundSessionInUseByAnotherProcess, .cannotConnect),
        (.backgroundSessionRequiresSharedContainer, .cannotConnect),
        (.timedOut, .timedOut),
        (.networkConnectionLost, .connectionLost), (.backgroundSessionWasDisconnected, .connectionLost),
        (.requestBodyStreamExhausted, .connectionLost),
        (.badServerResponse, .badResponse), (.cannotParseResponse, .badResponse), (.zeroByteResource, .badResponse),
        (.cannotDecodeRawData, .badResponse), (.cannotDecodeContentData, .badResponse), (.unknown, .badResponse),
        (.unsupportedURL, .badResponse), (.httpTooManyRedirects, .badResponse),
        (.redirectToNonExistentLocation, .badResponse), (.dataLengthExceedsMaximum, .badResponse),
        (.downloadDecodingFailedMidStream, .badResponse), (.downloadDecodingFailedToComplete, .badResponse),
        (.cannotCreateFile, .badResponse), (.cannotOpenFile, .badResponse), (.cannotCloseFile, .badResponse),
        (.cannotWriteToFile, .badResponse), (.cannotRemoveFile, .badResponse), (.cannotMoveFile, .badResponse),
        (.secureConnectionFailed, .secureConnectionFailed), (.serverCertificateHasBadDate, .secureConnectionFailed),
        (.serverCertificateUntrusted, .secureConnectionFailed),
        (.serverCertificateHasUnknownRoot, .secureConnectionFailed),
        (.serverCertificateNotYetValid, .secureConnectionFailed), (.clientCertificateRejected, .secureConnectionFailed),
        (.clientCertificateRequired, .secureConnectionFailed),
        (.appTransportSecurityRequiresSecureConnection, .secureConnectionFailed),
        (.cancelled, .cancelled),
    ]

    @Test(arguments: table)
    func urlErrorCode_landsInItsCase(code: URLError.Code, expected: WebServiceError.Network) {
        #expect(WebServiceError.Network(urlErrorCode: code) == expected)
        #expect(WebServiceError.Network(transportError: URLError(code)) == expected)
    }

    @Test func table_namesEachCodeOnce() {
        let codes = Self.table.map(\.0.rawValue)
        #expect(Set(codes).count == codes.count)
    }

    /// What FoundationNetworking on Linux actually reports for broken exchanges (observed against a raw
    /// socket server), and where each lands.
    @Test(arguments: [
        (URLError.Code.networkConnectionLost, WebServiceError.Network.connectionLost),  // RST after the request
        (.badServerResponse, .badResponse),  // closed after the request, no reply ("Empty reply from server")
        (.unknown, .badResponse),  // body cut short, or a malformed chunk
        (.unsupportedURL, .badResponse),  // garbage instead of a status line ("Received HTTP/0.9")
        (.cannotConnectToHost, .cannotConnect),  // nothing listening
        (.timedOut, .timedOut),  // never answered
    ])
    func linuxObservedFailure_landsInExpectedCase(code: URLError.Code, expected: WebServiceError.Network) {
        // Given the error as URLSession delivers it: an NSError in NSURLErrorDomain
        let delivered: any Error = NSError(domain: NSURLErrorDomain, code: code.rawValue)
        // Then it maps like the URLError it bridges to
        #expect(WebServiceError.Network(transportError: delivered) == expected)
    }

    /// What Apple's URLSession reports for the same broken exchanges, by Apple's documentation of the codes
    /// (not observed here: no Mac runs these tests), and where each lands. The raw values are used so that
    /// the table is the same on both platforms.
    @Test(arguments: [
        (-1005, WebServiceError.Network.connectionLost),  // networkConnectionLost: a reset, a reply closed off mid-load
        (-1017, .badResponse),  // cannotParseResponse: garbage, a malformed status line or chunk
        (-1011, .badResponse),  // badServerResponse: "bad data from the server"
        (-1014, .badResponse),  // zeroByteResource: a length announced, then a graceful close with no data
        (-1004, .cannotConnect),  // cannotConnectToHost: nothing listening
        (-1001, .timedOut),  // timedOut: never answered
        (-999, .cancelled),  // cancelled
    ])
    func darwinDocumentedFailure_landsInExpectedCase(code: Int, expected: WebServiceError.Network) {
        let delivered: any Error = NSError(domain: NSURLErrorDomain, code: code)
        #expect(WebServiceError.Network(transportError: delivered) == expected)
    }

    /// Each fault kind, the codes each platform reports for it (Linux: observed by `FaultClientTests`;
    /// Darwin: from Apple's documentation), and the cases an app must handle for it: the family is
    /// network-level on both, and the case the same except where Darwin reports a broken-off reply as a
    /// lost connection (see ``WebServiceError/Network/init(urlErrorCode:)``).
    static let faults: [(fault: String, linux: [Int], darwin: [Int], cases: Set<WebServiceError.Network>)] = [
        ("reset", [-1005], [-1005], [.connectionLost]),
        ("empty reply", [-1011], [-1005, -1011, -1017], [.connectionLost, .badResponse]),
        ("body cut short", [-1], [-1005, -1014], [.connectionLost, .badResponse]),
        ("malformed chunk", [-1], [-1005, -1017], [.connectionLost, .badResponse]),
        ("not HTTP", [-1002], [-1017, -1011], [.badResponse]),
        ("stall", [-1001], [-1001], [.timedOut]),
        ("nothing listening", [-1004], [-1004], [.cannotConnect]),
    ]

    @Test(arguments: faults.map { ($0.fault, $0.linux + $0.darwin, $0.cases) })
    func sameFault_landsInTheSameCasesOnEveryPlatform(fault: String, codes: [Int], cases: Set<WebServiceError.Network>) {
        for code in codes {
            let reason = WebServiceError.Reason.network(WebServiceError.Network(transportError: NSError(domain: NSURLErrorDomain, code: code)))
            #expect(reason.family == .network, "\(fault): \(code)")
            if case .network(let network) = reason { #expect(cases.contains(network), "\(fault): \(code) is \(network)") }
        }
    }

    @Test(arguments: [
        (POSIXError(.ECONNREFUSED) as any Error, WebServiceError.Network.cannotConnect),
        (POSIXError(.ECONNRESET), .connectionLost),
        (POSIXError(.ETIMEDOUT), .timedOut),
        (CancellationError(), .cancelled),
        (CocoaError(.fileReadUnknown), .connectionLost),
    ])
    func otherTransportError_landsInExpectedCase(error: any Error, expected: WebServiceError.Network) {
        #expect(WebServiceError.Network(transportError: error) == expected)
    }
}
