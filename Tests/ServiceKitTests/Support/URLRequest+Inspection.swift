import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// The query items in order, percent-decoded.
    var queryItems: [URLQueryItem] {
        url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
    }

    /// The body as UTF-8 text.
    var bodyText: String { String(decoding: httpBody ?? Data(), as: UTF8.self) }

    /// The form body's fields in order, decoded (`+` as space, then percent-decoding).
    var formFields: [(String, String)] {
        bodyText.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }
}
