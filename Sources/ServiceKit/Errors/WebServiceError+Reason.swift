import Foundation

extension WebServiceError {
    /// The family and the case of an error. A closed set: ServiceKit reports nothing else.
    public enum Reason: Hashable, Sendable {
        /// The exchange with the server did not complete.
        case network(Network)
        /// The server answered, but not with what the service asked for; or the service described a request
        /// that cannot be sent.
        case service(Service)

        /// Which of the two families this reason belongs to.
        public var family: Family {
            switch self {
            case .network: .network
            case .service: .service
            }
        }

        /// The `NSError` domain of the family.
        var domain: String {
            switch self {
            case .network: WebServiceError.networkErrorDomain
            case .service: WebServiceError.serviceErrorDomain
            }
        }

        /// The `NSError` code of the case within its family's domain.
        var code: Int {
            switch self {
            case .network(let failure): failure.code
            case .service(let failure): failure.code
            }
        }
    }

    /// The two families of ``WebServiceError``.
    public enum Family: Hashable, Sendable {
        /// Network-level: no connection, no host, timeouts, lost connections, malformed responses, TLS, cancellation.
        case network
        /// Service-level: the server said no, or said something the service cannot use; or the service
        /// described a request that cannot be sent.
        case service
    }

    /// Convenience for ``Reason/family``.
    public var family: Family { reason.family }
}
