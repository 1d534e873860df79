import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension WebServiceError.Network {
    /// The network-level case for a `URLError` code. Every code lands in exactly one case:
    ///
    /// | case | URLError codes |
    /// | --- | --- |
    /// | `notConnected` | notConnectedToInternet, internationalRoamingOff, callIsActive, dataNotAllowed, cannotLoadFromNetwork |
    /// | `cannotFindHost` | cannotFindHost, dnsLookupFailed |
    /// | `cannotConnect` | cannotConnectToHost, badURL, resourceUnavailable, userAuthenticationRequired, userCancelledAuthentication, fileDoesNotExist, fileIsDirectory, noPermissionsToReadFile, backgroundSessionInUseByAnotherProcess, backgroundSessionRequiresSharedContainer |
    /// | `timedOut` | timedOut |
    /// | `connectionLost` | networkConnectionLost, backgroundSessionWasDisconnected, requestBodyStreamExhausted, and any code not listed here |
    /// | `badResponse` | badServerResponse, cannotParseResponse, zeroByteResource, cannotDecodeRawData, cannotDecodeContentData, unknown, unsupportedURL, httpTooManyRedirects, redirectToNonExistentLocation, dataLengthExceedsMaximum, downloadDecodingFailedMidStream, downloadDecodingFailedToComplete, cannotCreateFile, cannotOpenFile, cannotCloseFile, cannotWriteToFile, cannotRemoveFile, cannotMoveFile |
    /// | `secureConnectionFailed` | secureConnectionFailed, serverCertificateHasBadDate, serverCertificateUntrusted, serverCertificateHasUnknownRoot, serverCertificateNotYetValid, clientCertificateRejected, clientCertificateRequired, appTransportSecurityRequiresSecureConnection |
    /// | `cancelled` | cancelled |
    ///
    /// On Darwin `fileOutsideSafeArea` is `cannotConnect` too, and a code newer than this table is
    /// `connectionLost`.
    ///
    /// Why `unknown` and `unsupportedURL` are `badResponse`: that is how FoundationNetworking (libcurl)
    /// reports a broken reply on Linux. A body cut short ("transfer closed with N bytes remaining") and a
    /// malformed chunk arrive as `unknown`; a reply that is not HTTP at all ("Received HTTP/0.9") arrives as
    /// `unsupportedURL`; a connection closed with no reply arrives as `badServerResponse`; a reset arrives
    /// as `networkConnectionLost`. ServiceKit only builds http and https URLs, so `unsupportedURL` cannot
    /// mean a bad scheme here.
    ///
    /// The same fault is always a network-level error on every platform, but a reply broken off (closed with
    /// no reply, or a body cut short) may be `connectionLost` on Apple platforms where it is `badResponse`
    /// on Linux: Apple documents `networkConnectionLost` (-1005) as a connection severed in the middle of a
    /// load, which is what it reports for a reset too, so no mapping can tell the two apart there. A reply
    /// that cannot be parsed is `cannotParseResponse` (-1017) or `badServerResponse` (-1011) there, and
    /// `badResponse` everywhere. Code that retries should treat `connectionLost` and `badResponse` alike.
    public init(urlErrorCode code: URLError.Code) {
        switch code {
        case .notConnectedToInternet, .internationalRoamingOff, .callIsActive, .dataNotAllowed,
            .cannotLoadFromNetwork:
            self = .notConnected
        case .cannotFindHost, .dnsLookupFailed:
            self = .cannotFindHost
        case .cannotConnectToHost, .badURL, .resourceUnavailable, .userAuthenticationRequired,
            .userCancelledAuthentication, .fileDoesNotExist, .fileIsDirectory, .noPermissionsToReadFile,
            .backgroundSessionInUseByAnotherProcess, .backgroundSessionRequiresSharedContainer:
            self = .cannotConnect
        case .timedOut:
            self = .timedOut
        case .networkConnectionLost, .backgroundSessionWasDisconnected, .requestBodyStreamExhausted:
            self = .connectionLost
        case .badServerResponse, .cannotParseResponse, .zeroByteResource, .cannotDecodeRawData,
            .cannotDecodeContentData, .unknown, .unsupportedURL, .httpTooManyRedirects,
            .redirectToNonExistentLocation, .dataLengthExceedsMaximum, .downloadDecodingFailedMidStream,
            .downloadDecodingFailedToComplete, .cannotCreateFile, .cannotOpenFile, .cannotCloseFile,
            .cannotWriteToFile, .cannotRemoveFile, .cannotMoveFile:
            self = .badResponse
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired, .appTransportSecurityRequiresSecureConnection:
            self = .secureConnectionFailed
        case .cancelled:
            self = .cancelled
        #if !canImport(FoundationNetworking)
        case .fileOutsideSafeArea:
            self = .cannotConnect
        default:
            // Darwin's URLError.Code is an open struct (Linux's is a closed enum, fully listed above): a
            // code newer than this table means the exchange broke off for a reason we cannot name better.
            self = .connectionLost
        #endif
        }
    }

    /// The network-level case for any error a transport throws: `URLError` (or an `NSError` in
    /// `NSURLErrorDomain`) through ``init(urlErrorCode:)``, `CancellationError` as `cancelled`, a POSIX
    /// socket error by its errno (refused and unreachable as `cannotConnect`, reset and broken pipe as
    /// `connectionLost`, timeout as `timedOut`), anything else as `connectionLost`.
    public init(transportError error: any Error) {
        if let urlError = error as? URLError {
            self.init(urlErrorCode: urlError.code)
        } else if error is CancellationError {
            self = .cancelled
        } else if let posix = error as? POSIXError {
            switch posix.code {
            case .ECONNREFUSED, .ENETUNREACH, .EHOSTUNREACH, .EADDRNOTAVAIL: self = .cannotConnect
            case .ETIMEDOUT: self = .timedOut
            default: self = .connectionLost
            }
        } else if (error as NSError).domain == NSURLErrorDomain,
            let code = Self.urlErrorCode(rawValue: (error as NSError).code)
        {
            // On Linux an NSError built in NSURLErrorDomain does not always cast to URLError.
            self.init(urlErrorCode: code)
        } else {
            self = .connectionLost
        }
    }

    private static func urlErrorCode(rawValue: Int) -> URLError.Code? {
        // Failable on Linux (a closed enum), total on Darwin (an open struct); both spell it the same.
        URLError.Code(rawValue: rawValue)
    }
}
