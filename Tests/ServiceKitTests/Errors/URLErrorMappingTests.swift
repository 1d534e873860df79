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
