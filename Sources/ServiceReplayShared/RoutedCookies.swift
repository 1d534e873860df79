import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A routed session's cookies, handled by the router as URLSession handles them for a direct request: a
/// `URLProtocol`'s client neither adds `Cookie` to the request nor stores the answer's `Set-Cookie` (seen on
/// Linux; on Apple platforms by reading, which is why OHHTTPStubs stores them itself), so without this an app
/// that logs in would send its next request without its session cookie.
///
/// The request gets `Cookie` from the storage for the URL the client asked for when the session sends cookies
/// (`httpShouldSetCookies`), the request handles them (`httpShouldHandleCookies`) and does not set `Cookie`
/// itself. Every `Set-Cookie` of the answer is stored for that URL, unless the request does not handle
/// cookies or the accept policy refuses them (`never`; `onlyFromMainDocumentDomain` with a
/// `mainDocumentURL` whose host does not end with the URL's, as Darwin decides it).
///
/// Unchecked because `HTTPCookieStorage` is not marked `Sendable`; it is documented thread-safe.
package struct RoutedCookies: @unchecked Sendable {
    let storage: HTTPCookieStorage
    let acceptPolicy: HTTPCookie.AcceptPolicy
    let sendsCookies: Bool

    /// Cookies kept in `storage` under `acceptPolicy`, sent when `sendsCookies`; `nil` without a storage (a
    /// session configured without cookies).
    package init?(storage: HTTPCookieStorage?, acceptPolicy: HTTPCookie.AcceptPolicy, sendsCookies: Bool) {
        guard let storage else { return nil }
        self.storage = storage
        self.acceptPolicy = acceptPolicy
        self.sendsCookies = sendsCookies
    }

    /// The cookies of sessions made from `configuration`: its storage, accept policy and `httpShouldSetCookies`.
    package init?(configuration: URLSessionConfiguration) {
        self.init(
            storage: configuration.httpCookieStorage, acceptPolicy: configuration.httpCookieAcceptPolicy,
            sendsCookies: configuration.httpShouldSetCookies)
    }

    /// The `Cookie` value URLSession would add to `request`, or `nil`: no cookie stored for its URL, or cookies
    /// not sent for it, or a `Cookie` it sets itself (which wins).
    package func header(for request: URLRequest) -> String? {
        guard sendsCookies, request.httpShouldHandleCookies, request.value(forHTTPHeaderField: "Cookie") == nil, let url = request.url,
            let cookies = storage.cookies(for: url), !cookies.isEmpty
        else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    /// Stores the cookies that `headerFields` (an answer's, repeated `Set-Cookie` joined as URLSession joins
    /// them) set for `url`, the URL `request` asked for, unless the request or the policy refuses them.
    package func store(_ headerFields: [AnyHashable: Any], from url: URL, for request: URLRequest) {
        guard request.httpShouldHandleCookies, acceptPolicy != .never, let host = url.host?.lowercased() else { return }
        if acceptPolicy == .onlyFromMainDocumentDomain, let main = request.mainDocumentURL {
            guard main.host?.lowercased().hasSuffix(host) == true else { return }
        }
        var fields: [String: String] = [:]
        for (name, value) in headerFields {
            guard let name = name as? String, name.lowercased() == "set-cookie", let value = value as? String else { continue }
            fields["Set-Cookie"] = value
        }
        guard !fields.isEmpty else { return }
        let cookies = HTTPCookie.cookies(withResponseHeaderFields: fields, for: url)
        if !cookies.isEmpty {
            storage.setCookies(cookies, for: url, mainDocumentURL: nil)
        }
    }
}
