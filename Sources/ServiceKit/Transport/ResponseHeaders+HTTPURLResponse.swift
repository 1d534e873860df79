import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ResponseHeaders {
    /// The header fields of `response`. `allHeaderFields` is a dictionary, so arrival order is already lost:
    /// they are sorted by name to stay deterministic.
    init(of response: HTTPURLResponse) {
        let fields = response.allHeaderFields
            .map { ResponseHeaders.Field(name: "\($0.key)", value: "\($0.value)") }
            .sorted { $0.name.lowercased() < $1.name.lowercased() }
        self.init(fields)
    }
}
