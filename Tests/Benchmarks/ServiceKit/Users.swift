#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation
import ServiceKit

/// The typed result both decoders produce: 8 of the payload's 20 fields.
struct User: Decodable, Sendable {
    let login: String
    let id: Int
    let avatarURL: URL
    let htmlURL: URL
    let type: String
    let siteAdmin: Bool
    let name: String?
    let createdAt: Date

    enum CodingKeys: String, CodingKey {
        case login, id, avatarURL = "avatar_url", htmlURL = "html_url", type, siteAdmin = "site_admin", name
        case createdAt = "created_at"
    }
}

/// `GET /users` with the default, `Decodable` mapping.
struct DecodableUsersService: WebService {
    typealias Response = [User]
    var endpoint: String { "/users" }
}

/// `GET /users` mapped by hand with the accessors, the way the README teaches.
struct MappedUsersService: WebService {
    var endpoint: String { "/users" }

    func response(from json: JSON) throws -> [User] {
        try json.required.array.map { user in
            User(
                login: try user["login"].required.string, id: try user["id"].required.int,
                avatarURL: try user["avatar_url"].required.url, htmlURL: try user["html_url"].required.url,
                type: try user["type"].required.string, siteAdmin: try user["site_admin"].required.bool,
                name: user["name"].string, createdAt: try user["created_at"].required.date(.iso8601))
        }
    }
}

/// The hand-written Foundation reference.
func decodeWithJSONDecoder(_ data: Data) throws -> [User] {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try decoder.decode([User].self, from: data)
}

/// A `WebService`'s whole response path after the bytes arrive: the response parsed once, error detection,
/// then the service's mapping.
func decodeThroughService<Service: WebService>(_ service: Service, _ data: Data) throws -> Service.Response {
    let reply = RawResponse(statusCode: 200, headers: ["Content-Type": "application/json; charset=utf-8"], body: data)
    if let failure = service.serviceError(in: reply) {
        throw WebServiceError.service(failure)
    }
    return try service.decodeResponse(reply)
}
#endif
