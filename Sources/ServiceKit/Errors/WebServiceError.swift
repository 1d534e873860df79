import Foundation

/// The one error ServiceKit reports. Every failed call ends in exactly one of two families:
/// *network-level* (the exchange with the server did not complete) or *service-level* (the server
/// answered, but not with what the service asked for; or the service described a request that cannot be
/// sent, ``Service/invalidRequest(_:)``).
///
/// ``reason`` names the family and the case, so a test or a caller compares it directly:
/// `error.reason == .network(.timedOut)` or `error.reason == .service(.rateLimited(retryAfter: 2))`.
/// Two errors are equal when their reasons are equal; the underlying error and status code are
/// debugging details and take no part in equality.
///
/// It is an `NSError` because one type has to bridge to *two* domains: `CustomNSError` takes its domain
/// from a static property, and on Linux bridging reads only that, so a value type could offer one domain.
/// Here `error as NSError` is the error itself, with ``networkErrorDomain`` or ``serviceErrorDomain``,
/// a stable code per case (``Network/code`` and ``Service/code``), the case's sentence as
/// `localizedDescription`, the underlying error under `NSUnderlyingErrorKey` and the HTTP status under
/// ``statusCodeKey``.
public final class WebServiceError: NSError, LocalizedError, @unchecked Sendable {
    // @unchecked: every stored property is an immutable `let` of a Sendable type; NSError's own storage
    // is set once in `init` and never mutated.

    /// The `NSError` domain of every network-level error.
    public static let networkErrorDomain = "ServiceKit.NetworkError"
    /// The `NSError` domain of every service-level error.
    public static let serviceErrorDomain = "ServiceKit.ServiceError"
    /// The `userInfo` key holding the HTTP status code (an `Int`) when the server answered.
    public static let statusCodeKey = "ServiceKitStatusCode"

    /// Which family and which case this error is.
    public let reason: Reason
    /// What actually went wrong underneath (a `URLError`, a `DecodingError`, ...), kept for debugging;
    /// never shown to a person.
    public let underlyingError: (any Error)?
    /// The HTTP status of the response, when the server answered at all.
    public let statusCode: Int?

    /// Creates an error for `reason`, keeping `underlyingError` and `statusCode` for debugging.
    public init(_ reason: Reason, underlyingError: (any Error)? = nil, statusCode: Int? = nil) {
        self.reason = reason
        self.underlyingError = underlyingError
        self.statusCode = statusCode
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: reason.message]
        if let underlyingError {
            userInfo[NSUnderlyingErrorKey] = underlyingError as NSError
        }
        if let statusCode {
            userInfo[Self.statusCodeKey] = statusCode
        }
        super.init(domain: reason.domain, code: reason.code, userInfo: userInfo)
    }

    /// Archiving is not supported: an archived error would lose its ``reason``. Always returns `nil`.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// A network-level error: the exchange with the server did not complete.
    public static func network(_ failure: Network, underlyingError: (any Error)? = nil) -> WebServiceError {
        WebServiceError(.network(failure), underlyingError: underlyingError)
    }

    /// A service-level error: the server answered, but not with what the service asked for.
    public static func service(
        _ failure: Service, underlyingError: (any Error)? = nil,
        statusCode: Int? = nil
    ) -> WebServiceError {
        WebServiceError(.service(failure), underlyingError: underlyingError, statusCode: statusCode)
    }

    /// The sentence a person can act on; the same text as `localizedDescription`.
    public var errorDescription: String? { reason.message }

    /// Equal when the other object is a `WebServiceError` with the same ``reason``.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? WebServiceError)?.reason == reason
    }

    /// Consistent with ``isEqual(_:)``: hashes the ``reason`` only.
    public override var hash: Int { reason.hashValue }

    /// The reason and its sentence, for logs, then what went wrong underneath when that is known (a `URLError`'s
    /// own sentence, any other error as it describes itself), which is often the one sentence a developer needs:
    /// `WebServiceError(network(ServiceKit.WebServiceError.Network.cannotConnect)): Could not connect to the
    /// server. Try again later. Underneath: WebSockets are not available here: …`.
    public override var description: String {
        let logged = "WebServiceError(\(reason)): \(reason.message)"
        guard let underlyingError else { return logged }
        let underneath = (underlyingError as? URLError)?.localizedDescription ?? String(describing: underlyingError)
        return logged + " Underneath: " + underneath
    }
}
