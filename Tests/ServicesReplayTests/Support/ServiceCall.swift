import Foundation
import ServiceKit
import ExampleServices
import Testing

/// One service call that its cassette answers successfully, with the response type erased so that a table
/// can mix services: the fault matrix crosses these with fault kinds, the chaos runs repeat them.
struct ServiceCall: Sendable, CustomTestStringConvertible {
    /// A short name for tables: `login`, `github-user`, ...
    let name: String
    /// The cassette that answers it (`github/users`).
    let cassette: String
    /// The HTTP method the service sends (a POST is never retried).
    let method: HTTPMethod
    /// The client's common parameters this call needs (the friends token).
    let commonParameters: @Sendable () async -> Parameters
    /// Sends the call (or iterates the pages) and reports how it ended.
    let perform: @Sendable (WebServiceClient) async -> CallOutcome

    var testDescription: String { name }

    /// A call of one service.
    static func send<Service: WebService>(
        _ name: String, cassette: String, _ service: Service,
        commonParameters: @escaping @Sendable () async -> Parameters = { Parameters() }
    )
        -> ServiceCall where Service.Response: Hashable
    {
        ServiceCall(name: name, cassette: cassette, method: service.method, commonParameters: commonParameters) { client in
            do throws(WebServiceError) {
                return .value(try await client.send(service))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Every page of a paginated service, at most `maxPages`, as one call whose value is the list of pages.
    static func pages<Service: PaginatedService>(
        _ name: String, cassette: String, _ service: Service, maxPages: Int
    )
        -> ServiceCall where Service.Response: Hashable
    {
        ServiceCall(name: name, cassette: cassette, method: service.method, commonParameters: { Parameters() }) { client in
            var pages: [Service.Response] = []
            do throws(WebServiceError) {
                for try await page in client.pages(of: service, maxPages: maxPages) {
                    pages.append(page)
                }
                return .value(pages)
            } catch {
                return .failure(error)
            }
        }
    }
}

/// How a call ended: a typed value or a ``WebServiceError``. Nothing else can come out of ServiceKit, and
/// the type says so.
enum CallOutcome: Sendable, CustomStringConvertible {
    case value(any Hashable & Sendable)
    case failure(WebServiceError)

    /// Whether both are values and equal.
    func hasSameValue(as other: CallOutcome) -> Bool {
        guard case .value(let mine) = self, case .value(let theirs) = other else { return false }
        return AnyHashable(mine) == AnyHashable(theirs)
    }

    /// The error's reason, for a failure.
    var reason: WebServiceError.Reason? {
        guard case .failure(let error) = self else { return nil }
        return error.reason
    }

    var description: String {
        switch self {
        case .value(let value): "value \(value)"
        case .failure(let error): "error \(error.reason)"
        }
    }
}

extension ServiceCall {
    /// The token the friends calls send; the cassette redacts it and ignores it for matching.
    static let friendsToken = "tok-services-replay"

    static let login = send("login", cassette: "login/login", LoginService(username: "CommandShift", password: "hunter2"))
    static let stackExchange = send("stackexchange", cassette: "stackexchange/questions", StackExchangeQuestionsService.swiftPage(1))
    static let gitHubUsers = send("github-users", cassette: "github/users", GitHubUsersService(since: 0, perPage: 3))
    static let gitHubUser = send("github-user", cassette: "github/users", GitHubUserService(login: "octocat"))
    static let friends = send(
        "friends", cassette: "friends/friends", FriendsService(userID: "42"),
        commonParameters: { ["token": ServiceCall.friendsToken] })
    static let feed = send("feed", cassette: "feed/feeds", FeedService(page: 1, pageSize: 3))
    static let upload = send("upload", cassette: "upload/photos", PhotoUploadService(caption: "Sunset over the bay", jpegData: UploadFixture.jpeg))

    static let stackExchangePages = pages(
        "stackexchange-pages", cassette: "stackexchange/questions",
        StackExchangeQuestionsService.swiftPage(1), maxPages: 5)
    static let gitHubUserPages = pages("github-users-pages", cassette: "github/users", GitHubUsersService(since: 0, perPage: 3), maxPages: 2)
    static let feedPages = pages("feed-pages", cassette: "feed/feeds", FeedService(page: 1, pageSize: 3), maxPages: 5)

    /// One successful call per service, in the order of the README's list.
    static let everyService: [ServiceCall] = [login, stackExchange, gitHubUsers, gitHubUser, friends, feed, upload]
    /// The paginated services, every page.
    static let everyPagination: [ServiceCall] = [stackExchangePages, gitHubUserPages, feedPages]
}

extension StackExchangeQuestionsService {
    /// Page `page` of the recorded listing: newest activity first, tagged swift, three per page.
    static func swiftPage(_ page: Int?) -> StackExchangeQuestionsService {
        StackExchangeQuestionsService(site: "stackoverflow", tagged: ["swift"], sort: .activity, order: .desc, page: page, pageSize: 3)
    }
}
