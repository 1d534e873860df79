import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension WebService {
    /// `.get`.
    public var method: HTTPMethod { .get }

    /// None.
    public var parameters: Parameters { [:] }

    /// `.query` when the service gives a ``WebService/body``; otherwise the method's default: query string
    /// for GET, HEAD, DELETE, OPTIONS; JSON body otherwise.
    public var parameterEncoding: ParameterEncoding { body == nil ? method.defaultParameterEncoding : .query }

    /// None: the parameters make the body, if any.
    public var body: RequestBody? { nil }

    /// ISO 8601 dates, `true`/`false`, repeated names.
    public var parameterFormatting: ParameterFormatting { .standard }

    /// None.
    public var files: [MultipartFile] { [] }

    /// None: the request is unconditional.
    public var condition: RequestCondition? { nil }

    /// Leaves the request as the client built it.
    public func configure(_ request: inout URLRequest) {}

    /// Maps the body's JSON with ``response(from:)``; throws `.undecodableBody` or `.wrongContentType`
    /// when the body has no usable JSON.
    public func decodeResponse(_ reply: RawResponse) throws -> Response {
        try response(from: reply.requiredJSON)
    }

    /// ``RawResponse/commonServiceError``.
    public func serviceError(in reply: RawResponse) -> WebServiceError.Service? {
        reply.commonServiceError
    }

    /// ``WebServiceError/Network/init(transportError:)``.
    public func networkError(for failure: any Error) -> WebServiceError.Network {
        WebServiceError.Network(transportError: failure)
    }

    /// ISO 8601.
    public var responseDateFormat: DateFormat { .iso8601 }
}

extension WebService where Response: Decodable {
    /// Decodes `Response` from the already parsed JSON, leniently, reading dates with ``responseDateFormat``.
    public func response(from json: JSON) throws -> Response {
        try json.decode(Response.self, dateFormat: responseDateFormat)
    }
}
