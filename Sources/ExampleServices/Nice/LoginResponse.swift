import Foundation

/// A successful log-in.
public struct LoginResponse: Hashable, Sendable {
    /// The token that authorises later calls (the friends call sends it as `token`).
    public var accessToken: String
    /// When the account was created.
    public var signupDate: Date

    /// A log-in result.
    public init(accessToken: String, signupDate: Date) {
        self.accessToken = accessToken
        self.signupDate = signupDate
    }
}
