import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit
import ServiceKitTesting

/// A minimal service whose response is the JSON value itself; every hook is settable for one test.
struct EchoService: WebService {
    var endpoint = "/echo"
    var method: HTTPMethod = .get
    var parameters: Parameters = [:]
    var parameterEncoding: ParameterEncoding = .query
    var parameterFormatting: ParameterFormatting = .standard
    var files: [MultipartFile] = []
    var extraHeader: (String, String)?

    func configure(_ request: inout URLRequest) {
        if let (name, value) = extraHeader {
            request.setValue(value, forHTTPHeaderField: name)
        }
    }

    func response(from json: JSON) throws -> JSONValue {
        guard let value = json.value else { throw WebServiceError.service(.undecodableBody) }
        return value
    }
}

/// A client with a scripted transport, a virtual clock and the given policy.
func makeClient(
    _ transport: ScriptedTransport, baseURL: String = "https://api.example.test/v1",
    retryPolicy: RetryPolicy? = nil, clock: VirtualClock = VirtualClock(),
    headers: [String: String] = [:],
    commonParameters: @escaping @Sendable () async -> Parameters = { Parameters() }
) -> WebServiceClient {
    WebServiceClient(
        baseURL: URL(string: baseURL)!,
        configuration: .init(
            headers: headers, commonParameters: commonParameters, timeout: 12,
            retryPolicy: retryPolicy, clock: clock),
        transport: transport)
}
