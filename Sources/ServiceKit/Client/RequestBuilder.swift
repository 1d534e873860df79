import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Builds the `URLRequest` for one call: base URL plus endpoint, parameters in the service's encoding,
/// default headers, the client's headers, the service's condition, the timeout, the body, then the service's
/// own adjustments.
struct RequestBuilder {
    let baseURL: URL
    let headers: [String: String]
    let timeout: TimeInterval
    /// Encodes the services' `Encodable` bodies that name no encoder of their own.
    let jsonEncoder: JSONEncoder
    var multipartBoundary: String?

    /// The request for a ``WebService`` call, or `.network(.cannotConnect)` (underlying
    /// `URLError.badURL`) when no URL can be made, or `.service(.invalidRequest)` when the service describes
    /// a request that cannot be sent.
    func request<Service: WebService>(for service: Service, parameters: Parameters) throws(WebServiceError) -> URLRequest {
        try request(
            endpoint: service.endpoint, method: service.method, parameters: parameters,
            encoding: service.parameterEncoding, formatting: service.parameterFormatting,
            files: service.files, body: service.body, condition: service.condition, accept: "application/json",
            configure: service.configure)
    }

    /// The request for a ``StreamingService`` call: the same as a ``WebService``'s, accepting
    /// `text/event-stream`.
    func request<Service: StreamingService>(for service: Service, parameters: Parameters) throws(WebServiceError) -> URLRequest {
        try request(
            endpoint: service.endpoint, method: service.method, parameters: parameters,
            encoding: service.parameterEncoding, formatting: service.parameterFormatting,
            files: [], body: nil, condition: nil, accept: "text/event-stream", configure: service.configure)
    }

    /// The opening request of a ``WebSocketService`` connection: a `GET` with the parameters in the query, no
    /// `Accept`, and the base URL's scheme made the WebSocket one (`http` to `ws`, `https` to `wss`).
    func request<Service: WebSocketService>(for service: Service, parameters: Parameters) throws(WebServiceError) -> URLRequest {
        var request = try request(
            endpoint: service.endpoint, method: .get, parameters: parameters, encoding: .query,
            formatting: service.parameterFormatting, files: [], body: nil, condition: nil, accept: nil, configure: { _ in })
        if let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) {
            components.scheme = components.scheme?.lowercased() == "https" ? "wss" : "ws"
            request.url = components.url ?? url
        }
        service.configure(&request)
        return request
    }

    private func request(
        endpoint: String, method: HTTPMethod, parameters: Parameters, encoding: ParameterEncoding,
        formatting: ParameterFormatting, files: [MultipartFile], body: RequestBody?, condition: RequestCondition?,
        accept: String?, configure: (inout URLRequest) -> Void
    ) throws(WebServiceError) -> URLRequest {
        try Self.checkShape(method: method, encoding: encoding, files: files, hasBody: body != nil)
        let query = encoding == .query ? try EncodedBody.queryString(parameters, formatting: formatting) : ""
        guard let url = url(endpoint: endpoint, query: query) else {
            throw .network(.cannotConnect, underlyingError: URLError(.badURL))
        }
        var request = URLRequest(url: url)
        // Set as a property: FoundationNetworking on Linux ignores the timeout given to
        // URLRequest(url:timeoutInterval:) (the request then waits the session's 60 s default).
        request.timeoutInterval = timeout
        request.httpMethod = method.rawValue
        if let accept {
            request.setValue(accept, forHTTPHeaderField: "Accept")
        }
        request.setValue("ServiceKit/\(ServiceKit.version)", forHTTPHeaderField: "User-Agent")
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        if let header = condition?.header {
            request.setValue(header.value, forHTTPHeaderField: header.name)
        }
        let encoded =
            if let body {
                try body.encoded(clientEncoder: jsonEncoder)
            } else {
                try parametersBody(encoding, parameters: parameters, files: files, formatting: formatting)
            }
        if let encoded {
            request.setValue(encoded.contentType, forHTTPHeaderField: "Content-Type")
            request.httpBody = encoded.data
        }
        configure(&request)
        return request
    }

    /// Refuses a request that cannot be sent as the service describes it, with one sentence saying why,
    /// instead of sending something else: GET and HEAD carry no body (RFC 9110 gives one no meaning, and
    /// Apple's URLSession fails such a request), a request has one body (the service's own, or its
    /// parameters'), and files travel only in a `.multipart` body.
    static func checkShape(
        method: HTTPMethod, encoding: ParameterEncoding, files: [MultipartFile], hasBody: Bool
    ) throws(WebServiceError) {
        if method.carriesNoBody, hasBody {
            throw .service(
                .invalidRequest("A \(method) request has no body, but the service gives one; send its values as parameters in the query."))
        }
        if method.carriesNoBody, encoding != .query {
            throw .service(
                .invalidRequest(
                    "A \(method) request has no body, but the service encodes its parameters as \(encoding.spelling); encode them as .query."
                ))
        }
        if hasBody, encoding != .query {
            throw .service(
                .invalidRequest(
                    "The service gives a body and also encodes its parameters as \(encoding.spelling), but a request has one body; encode the parameters as .query, or put them in the body."
                ))
        }
        if !files.isEmpty, encoding != .multipart {
            throw .service(
                .invalidRequest(
                    "The service has files, which only a .multipart body carries, but encodes its parameters as \(encoding.spelling)."))
        }
    }

    private func parametersBody(
        _ encoding: ParameterEncoding, parameters: Parameters, files: [MultipartFile],
        formatting: ParameterFormatting
    ) throws(WebServiceError) -> EncodedBody? {
        switch encoding {
        case .query:
            return nil
        case .json:
            return EncodedBody.json(parameters, formatting: formatting)
        case .form:
            return try EncodedBody.form(parameters, formatting: formatting)
        case .multipart:
            let multipart = multipartBoundary.map { MultipartBody(boundary: $0) } ?? MultipartBody()
            return try multipart.encode(parameters, files: files, formatting: formatting)
        }
    }

    /// The base URL's path joined to the percent-encoded endpoint with exactly one `/`, and `query`
    /// appended to any query the base URL already has.
    private func url(endpoint: String, query: String) -> URL? {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) else { return nil }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") {
            path.removeLast()
        }
        let encodedEndpoint = PercentEncoding.encode(endpoint, allowing: PercentEncoding.path)
        if !encodedEndpoint.isEmpty {
            path += encodedEndpoint.hasPrefix("/") ? encodedEndpoint : "/" + encodedEndpoint
        }
        components.percentEncodedPath = path.isEmpty ? "/" : path
        let queries = [components.percentEncodedQuery, query].compactMap { $0 }.filter { !$0.isEmpty }
        components.percentEncodedQuery = queries.isEmpty ? nil : queries.joined(separator: "&")
        return components.url
    }
}

extension RequestBuilder {
    /// A builder with `client`'s base URL, headers, timeout and JSON encoder.
    init(client: WebServiceClient) {
        let configuration = client.configuration
        self.init(
            baseURL: client.baseURL, headers: configuration.headers, timeout: configuration.timeout,
            jsonEncoder: configuration.jsonEncoder)
    }
}
