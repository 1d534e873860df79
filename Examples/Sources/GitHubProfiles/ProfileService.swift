import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServiceKit

/// A GitHub user's public profile.
public struct Profile: Decodable, Sendable, Equatable {
    public let login: String
    public let name: String?
    public let publicRepos: Int

    enum CodingKeys: String, CodingKey {
        case login, name
        case publicRepos = "public_repos"
    }
}

/// Fetches profiles from GitHub through a ServiceKit client: its URLs are GitHub's (or, for GitHub Enterprise,
/// the API address given), only the session configuration is the caller's.
public struct ProfileService: Sendable {
    /// Why a profile could not be fetched.
    public enum Failure: Error, Equatable {
        /// GitHub knows no such user.
        case notFound(String)
        /// GitHub answered with another status.
        case status(Int)
    }

    private let client: WebServiceClient

    /// A service whose requests go through a session made from `configuration`.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        client = WebServiceClient(
            baseURL: URL(string: "https://api.github.com")!,
            transport: URLSessionTransport(configuration: configuration))
    }

    /// A service for the GitHub API at `baseURL`, such as a GitHub Enterprise server's `https://HOST/api/v3`,
    /// whose requests go through a session made from `configuration`.
    public init(baseURL: URL, configuration: URLSessionConfiguration = .ephemeral) {
        client = WebServiceClient(baseURL: baseURL, transport: URLSessionTransport(configuration: configuration))
    }

    /// The profile of `login`.
    /// - Throws: ``Failure`` for an answer with an error status, ServiceKit's `WebServiceError` otherwise.
    public func profile(login: String) async throws -> Profile {
        let status: Int
        do throws(WebServiceError) {
            return try await client.send(UserProfile(login: login))
        } catch {
            guard let code = error.statusCode else { throw error }
            status = code
        }
        throw status == 404 ? Failure.notFound(login) : Failure.status(status)
    }
}

/// `GET /users/LOGIN`: the call itself; its `Decodable` response needs no mapping.
struct UserProfile: WebService {
    typealias Response = Profile
    let login: String

    var endpoint: String { "/users/\(login)" }

    func configure(_ request: inout URLRequest) {
        request.setValue("application/vnd.github+json", forHTTPHeaderField: "Accept")
    }
}
