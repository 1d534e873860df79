import Foundation

extension WebService {
    /// Turns a whole response into the service's result or its service-level error, in order: the
    /// service's error detection, then the status, then the mapping. Whatever the mapping throws leaves
    /// as a ``WebServiceError``.
    package func interpret(_ reply: RawResponse) -> Result<Response, WebServiceError> {
        if let failure = serviceError(in: reply) {
            return .failure(.service(failure, statusCode: reply.statusCode))
        }
        guard reply.isSuccess else {
            return .failure(
                .service(
                    .httpStatus(reply.statusCode, message: reply.serverMessage),
                    statusCode: reply.statusCode))
        }
        do {
            return .success(try decodeResponse(reply))
        } catch let error as WebServiceError {
            return .failure(error)
        } catch let error as DecodingError {
            return .failure(.service(error.serviceFailure, underlyingError: error, statusCode: reply.statusCode))
        } catch {
            return .failure(.service(.undecodableBody, underlyingError: error, statusCode: reply.statusCode))
        }
    }
}

extension DecodingError {
    /// The service-level case for a `DecodingError` thrown by a service's own decoding, with our key-path
    /// format: a missing key or value is `.missingField`, a wrong type `.invalidField`, corrupt data at the
    /// root `.undecodableBody`.
    var serviceFailure: WebServiceError.Service {
        switch self {
        case .keyNotFound(let key, let context):
            .missingField(Self.path(context.codingPath + [key]))
        case .valueNotFound(_, let context):
            .missingField(Self.path(context.codingPath))
        case .typeMismatch(_, let context):
            .invalidField(Self.path(context.codingPath))
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            .undecodableBody
        case .dataCorrupted(let context):
            .invalidField(Self.path(context.codingPath))
        @unknown default:
            .undecodableBody
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        JSONPath(codingPath: keys).description
    }
}
