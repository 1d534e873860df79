import Foundation
import ServiceKit

/// Logs in to the Nice API (`POST /login`, form-encoded `username` and `password`).
///
/// Bad credentials arrive as 401 `{"error": "invalid_credentials", "message": "..."}` and end as
/// `.service(.httpStatus(401, message: "The username or password is incorrect."))`.
public struct LoginService: WebService {
    /// The account name.
    public var username: String
    /// The account password; sent only in the form body, never in the URL.
    public var password: String

    /// A log-in call for `username` and `password`.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// How the API writes `signupdate`: `yyyy-MM-dd HH:mm:ss` in UTC.
    public static let signupDateFormat = DateFormat.pattern("yyyy-MM-dd HH:mm:ss")

    /// `/login`.
    public var endpoint: String { "/login" }
    /// `POST`.
    public var method: HTTPMethod { .post }
    /// A form body.
    public var parameterEncoding: ParameterEncoding { .form }
    /// `username` and `password`.
    public var parameters: Parameters { ["username": username, "password": password] }

    /// Reads `access_token` and `signupdate`, both required.
    public func response(from json: JSON) throws -> LoginResponse {
        LoginResponse(
            accessToken: try json["access_token"].required.string,
            signupDate: try json["signupdate"].required.date(Self.signupDateFormat))
    }
}
