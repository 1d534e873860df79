import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Builds the `URLRequest` for one call: base URL plus endpoint, parameters in the service's encoding,
/// default headers, the client's headers, the timeout, then the service's own adjustments.
struct RequestBuilder {
    let baseURL: URL
    let headers: [String: String]
    let timeout: TimeInterval
    var multipartBoundary: String?

    /// The request, or `.network(.cannotConnect)` (underlying `URLError.badURL`) when no URL can be made.
    func request<Service: WebService>(for service: Service, parameters: Parameters) throws(WebServiceError) -> URLRequest {
        let encoding = service.parameterEncoding
        let formatting = service.parameterFormatting
        let query = encoding == .query ? RequestBody.queryString(parameters, formatting: formatting) : ""
        guard let url = url(endpoint: service.endpoint, query: query) else {
            throw .network(.cannotConnect, underlyingError: URLError(.badURL))
        }
        var request = URLRequest(url: url)
        // Set as a property: FoundationNetworking on Linux ignores the timeout given to
        // URLRequest(url:timeoutInterval:) (the request then waits the session's 60 s default).
        request.timeoutInterval = timeout
        request.httpMethod = service.method.rawValue
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("ServiceKit/\(ServiceKit.version)", forHTTPHeaderField: "User-Agent")
        for (name, value) in headers {
            request.setValue(value, forHTTPHeaderField: name)
        }
        if let body = body(encoding, parameters: parameters, files: service.files, formatting: formatting) {
            request.setValue(body.contentType, forHTTPHeaderField: "Content-Type")
            request.httpBody = body.data
        }
        service.configure(&request)
        return request
    }

    private func body(_ encoding: ParameterEncoding, parameters: Parameters, files: [MultipartFile],
                      formatting: ParameterFormatting) -> RequestBody? {
        switch encoding {
        case .query:
            return nil
        case .json:
            return RequestBody.json(parameters, formatting: formatting)
        case .form:
            return RequestBody.form(parameters, formatting: formatting)
        case .multipart:
            let multipart = multipartBoundary.map { MultipartBody(boundary: $0) } ?? MultipartBody()
            return multipart.encode(parameters, files: files, formatting: formatting)
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
