import Foundation

extension RedactionRules {
    /// `request` with every secret header, query parameter, form field and JSON field replaced by
    /// ``placeholder``. Cookie headers keep each cookie's name. Bodies without secrets are returned
    /// byte for byte; a redacted JSON body is re-serialised with sorted keys.
    package func redact(_ request: HTTPRequest) -> HTTPRequest {
        var copy = request
        copy.headers = redact(request.headers)
        copy.target = redact(target: request.target)
        copy.body = redact(body: request.body, contentType: request.headers["Content-Type"])
        return copy
    }

    /// `response` with every secret header and body field replaced by ``placeholder`` (see
    /// ``redact(_:)-(HTTPRequest)``).
    package func redact(_ response: HTTPResponse) -> HTTPResponse {
        var copy = response
        copy.headers = redact(response.headers)
        copy.body = redact(body: response.body, contentType: response.headers["Content-Type"])
        return copy
    }

    /// Headers with secret values replaced; `Cookie` and `Set-Cookie` keep cookie names and attributes. In
    /// any other header, a URL's secret query parameters get the placeholder (a `Location` to a presigned URL
    /// keeps everything but its signature; see ``redactingURLParameters(in:)``).
    package func redact(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(
            headers.lines.map { line in
                guard redactsHeader(line.name) else { return HTTPHeader(name: line.name, value: redactingURLParameters(in: line.value).text) }
                guard line.value != Self.placeholder else { return line }
                switch RedactionRules.normalisedHeader(line.name) {
                case "cookie":
                    return HTTPHeader(name: line.name, value: redactCookiePairs(line.value, separator: "; "))
                case "set-cookie":
                    return HTTPHeader(name: line.name, value: redactSetCookie(line.value))
                default:
                    return HTTPHeader(name: line.name, value: Self.placeholder)
                }
            })
    }

    /// A request target (path and query) with secret query parameter values replaced by the placeholder as
    /// URLs hold it (``Cassette/urlRedactionPlaceholder``); the rest of the target is kept exactly as written.
    package func redact(target: String) -> String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        let query = target[target.index(after: mark)...]
        return String(target[...mark]) + redactPairs(String(query), placeholder: Cassette.urlRedactionPlaceholder)
    }

    /// A body with secret fields replaced when it is a form (`application/x-www-form-urlencoded`) or JSON
    /// (a JSON media type, or no content type and a body that parses as a JSON object or array). A JSON body
    /// is edited as a value, through the same rules as stored cassettes, and written again only when something
    /// changed: key order and literals kept, in the body's own ``JSONLayout`` when it has one of those, else
    /// compactly. A body without secrets is returned byte for byte.
    package func redact(body: Data, contentType: String?) -> Data {
        guard !body.isEmpty, !fields.isEmpty || !headers.isEmpty else { return body }
        let mediaType = MediaType(contentType)
        if mediaType.isFormURLEncoded {
            let text = String(decoding: body, as: UTF8.self)
            let redacted = redactPairs(text)
            return redacted == text ? body : Data(redacted.utf8)
        }
        let looksJSON = mediaType.isJSON || (contentType == nil && [UInt8(ascii: "{"), UInt8(ascii: "[")].contains(body.first))
        guard looksJSON, let value = try? CassetteJSON(parsing: body) else { return body }
        var changed = 0
        let redacted = redactJSON(value, changed: &changed)
        guard changed > 0 else { return body }
        return Data((JSONLayout.reproducing(body, from: value) ?? .compact).render(redacted))
    }

    /// `text` with the value of every secret query parameter of the URLs written in it replaced by the
    /// placeholder, every other byte kept (see ``URLParametersInText``), and how many were replaced. A field
    /// name the rules redact in a query is redacted in these URLs too: signatures, credentials, tokens.
    func redactingURLParameters(in text: String) -> (text: String, count: Int) {
        URLParametersInText.redacting(text, isSecret: redactsField)
    }

    /// `name=value&...` with secret values replaced by `placeholder`; names are compared after form decoding.
    private func redactPairs(_ text: String, placeholder: String = RedactionRules.placeholder) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = String(pair[..<equals]).replacingOccurrences(of: "+", with: " ")
            let decoded = name.removingPercentEncoding ?? name
            // A value already redacted, in either spelling, stays as written: redacting twice changes nothing.
            let value = pair[pair.index(after: equals)...]
            guard redactsField(decoded), PercentDecoding.decode(String(value), plusAsSpace: true) != Self.placeholder else {
                return String(pair)
            }
            return "\(pair[..<equals])=\(placeholder)"
        }.joined(separator: "&")
    }

    private func redactCookiePairs(_ text: String, separator: String) -> String {
        text.split(separator: ";").map { piece -> String in
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            guard let equals = trimmed.firstIndex(of: "=") else { return trimmed }
            return "\(trimmed[..<equals])=\(Self.placeholder)"
        }.joined(separator: separator)
    }

    /// `name=value; Path=/; HttpOnly` → `name=<redacted>; Path=/; HttpOnly`.
    private func redactSetCookie(_ text: String) -> String {
        let parts = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        let first = redactCookiePairs(String(parts[0]), separator: "; ")
        return parts.count > 1 ? first + ";" + parts[1] : first
    }
}
