import Foundation

/// A recorded request made ready to be sent again to the live API: as recorded (method, target, header
/// lines in order, body), its redacted header values filled from values the user gives at run time.
///
/// Credentials only ever come from the caller: a cassette holds ``Cassette/redactionPlaceholder`` where a
/// secret was, and nothing filled in here is written anywhere.
package enum DriftRequest {
    /// Why a recorded request cannot be sent as it is.
    package enum Unfillable: Error, Sendable, Hashable {
        /// The header `name` holds the placeholder and no value was given for it.
        case header(String)
        /// The target (path or query) holds the placeholder.
        case target
        /// The body holds the placeholder.
        case body
    }

    /// `recorded` with every header line whose value holds the placeholder replaced by the value given for
    /// that header name in `fills` (compared without case), or why it cannot be sent. A placeholder in the
    /// target or body cannot be filled: those requests are skipped, never sent with `<redacted>` in them.
    package static func prepare(_ recorded: RecordedRequest, fills: HTTPHeaders) -> Result<HTTPRequest, Unfillable> {
        let placeholder = Cassette.redactionPlaceholder
        guard !Cassette.holdsRedactionPlaceholder(recorded.target) else { return .failure(.target) }
        guard recorded.body.data.range(of: Data(placeholder.utf8)) == nil,
            recorded.body.data.range(of: Data(Cassette.urlRedactionPlaceholder.utf8)) == nil
        else { return .failure(.body) }
        var headers = HTTPHeaders()
        for line in recorded.headers {
            guard line.value.contains(placeholder) else {
                headers.add(name: line.name, value: line.value)
                continue
            }
            guard let value = fills[line.name] else { return .failure(.header(line.name)) }
            headers.add(name: line.name, value: value)
        }
        return .success(HTTPRequest(method: recorded.method, target: recorded.target, headers: headers, body: recorded.body.data))
    }

    /// The names in `fills` that fill a placeholder in at least one of `requests`.
    package static func usedFills(_ fills: HTTPHeaders, in requests: [RecordedRequest]) -> Set<String> {
        var used: Set<String> = []
        for request in requests {
            for line in request.headers where line.value.contains(Cassette.redactionPlaceholder) && fills.contains(line.name) {
                used.insert(line.name.lowercased())
            }
        }
        return used
    }
}
