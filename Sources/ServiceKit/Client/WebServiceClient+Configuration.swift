import Foundation

extension WebServiceClient {
    /// What every call of one client shares.
    public struct Configuration: Sendable {
        /// Headers added to every request (an API key, `Accept-Language`, ...). They replace the client's
        /// defaults (`Accept: application/json`, `User-Agent: ServiceKit/<version>`) of the same name, and a
        /// service's ``WebService/configure(_:)`` may still replace them.
        public var headers: [String: String]
        /// Parameters added to every call, asked for anew before each call (for example an auth token from
        /// a store). They travel with the service's own parameters, in the same encoding; a service's
        /// parameter of the same name wins. Default: none.
        public var commonParameters: @Sendable () async -> Parameters
        /// The per-request timeout in seconds: how long to wait for data before failing with
        /// `.network(.timedOut)`, fractions included (``URLSessionTransport`` keeps it to the millisecond on
        /// every platform). Default 60.
        public var timeout: TimeInterval
        /// When to retry failed calls; `nil` (the default) never retries.
        public var retryPolicy: RetryPolicy?
        /// The time source for waits between retries and pagination pauses, and for header dates. Default:
        /// ``SystemClock``. A ``VirtualClock`` that a running replay server shares is also the clock of the
        /// ``timeout``: each request then names its transfer to the server (`X-MockServer-Transfer`), and times
        /// out on the clock, without waiting.
        public var clock: any ServiceClock
        /// Encodes the `Encodable` bodies of services (``RequestBody/json(_:encoder:)``) that name no encoder
        /// of their own. Default: dates in ISO 8601 (`2013-11-17T09:30:00Z`, as ``ParameterFormatting/standard``
        /// writes them), keys sorted and slashes unescaped, so that a body's bytes are the same on every run.
        /// The client only reads it: set it up before making the client, and leave it alone afterwards.
        public var jsonEncoder: JSONEncoder
        /// What opens the connections of ``WebServiceClient/connect(to:)``. Default: a new
        /// ``URLSessionWebSocketTransport`` for each configuration (its session is made on first use), which
        /// cannot open WebSockets on Linux; see its documentation.
        public var webSocketTransport: any WebSocketTransport

        /// A configuration; every argument has the documented default (`jsonEncoder: nil` is the default
        /// encoder described on ``jsonEncoder``, `webSocketTransport: nil` a new ``URLSessionWebSocketTransport``).
        public init(
            headers: [String: String] = [:],
            commonParameters: @escaping @Sendable () async -> Parameters = { Parameters() },
            timeout: TimeInterval = 60, retryPolicy: RetryPolicy? = nil,
            clock: any ServiceClock = SystemClock(), jsonEncoder: JSONEncoder? = nil,
            webSocketTransport: (any WebSocketTransport)? = nil
        ) {
            self.headers = headers
            self.commonParameters = commonParameters
            self.timeout = timeout
            self.retryPolicy = retryPolicy
            self.clock = clock
            self.jsonEncoder = jsonEncoder ?? Self.standardJSONEncoder()
            self.webSocketTransport = webSocketTransport ?? URLSessionWebSocketTransport()
        }

        /// ISO 8601 dates, sorted keys, unescaped slashes. (`JSONEncoder` is `Sendable` from macOS 13, iOS 16,
        /// tvOS 16 and watchOS 9, which are ServiceKit's floors, and in swift-foundation on Linux.)
        private static func standardJSONEncoder() -> JSONEncoder {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return encoder
        }
    }
}
