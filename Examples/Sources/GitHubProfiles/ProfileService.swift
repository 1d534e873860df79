import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

/// Fetches profiles from the one GitHub there is: its URLs are fixed, only the session is the caller's.
public struct ProfileService: Sendable {
    /// Why a profile could not be fetched.
    public enum Failure: Error, Equatable {
        /// GitHub knows no such user.
        case notFound(String)
        /// GitHub answered with another status.
        case status(Int)
    }

    private let session: URLSession

    /// A service whose requests go through a session made from `configuration`.
    public init(configuration: URLSessionConfiguration = .default) {
        session = URLSession(configuration: configuration)
    }

    /// The profile of `login`.
    /// - Throws: ``Failure`` for an answer other than 200, `URLError` when the request fails, `DecodingError`
    ///   for a body that is not a profile.
    public func profile(login: String) async throws -> Profile {
        let url = URL(string: "https://api.github.com/users")!.appendingPathComponent(login)
        var request = URLRequest(url: url)
        request.setValue("application/vnd.github+json", forHTTPHeaderField: "Accept")
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        switch status {
        case 200: return try JSONDecoder().decode(Profile.self, from: data)
        case 404: throw Failure.notFound(login)
        default: throw Failure.status(status)
        }
    }

    /// Lets the session's threads go; call it when done with the service.
    public func close() {
        session.finishTasksAndInvalidate()
    }
}
