import Foundation

/// Redaction of values already in a cassette (`recorder redact`, HAR import), counting what changed.
///
/// The same rules as for live traffic (``redact(_:)-(HTTPRequest)``): secret headers, query parameters, form
/// fields and JSON members at any depth get ``placeholder``, and so do the secret query parameters of URLs
/// written in header values, JSON strings, text bodies and stream parts (a presigned URL's signature; see
/// ``redactingURLParameters(in:)``), each counted as a body field in a body. Applying them twice changes
/// nothing the second time. Bodies keep their stored kind (JSON, text or base64); a JSON body is edited as a
/// value, so every other member keeps its exact literal, and text keeps every byte but the values replaced.
/// Base64 bodies and parts are bytes, not text: only a form or JSON body stored so is looked into, never for
/// URLs. Multipart bodies are not looked into.
extension RedactionRules {
    /// Redacts `request` in place (headers, query, body) and returns what changed.
    @discardableResult
    package func redact(_ request: inout RecordedRequest) -> RedactionCount {
        var count = RedactionCount()
        count.headers = redactCounting(&request.headers)
        let target = redact(target: request.target)
        if target != request.target {
            count.queryParameters = RedactionRules.changedPieces(RedactionRules.query(of: request.target), RedactionRules.query(of: target))
            request.target = target
        }
        count.bodyFields = redactCounting(&request.body, contentType: request.headers["Content-Type"])
        return count
    }

    /// Redacts `response` in place (headers, body) and returns what changed.
    @discardableResult
    package func redact(_ response: inout RecordedResponse) -> RedactionCount {
        var count = RedactionCount()
        count.headers = redactCounting(&response.headers)
        count.bodyFields = redactCounting(&response.body, contentType: response.headers["Content-Type"])
        return count
    }

    /// Redacts an interaction's request and response in place and returns what changed. Secrets the
    /// request carried are also removed wherever the response repeats them (an echo service, an error
    /// message quoting the token), in its header values and text or JSON body.
    @discardableResult
    package func redact(_ interaction: inout Interaction) -> RedactionCount {
        let secrets = secretValues(in: interaction.request)
        var count = redact(&interaction.request)
        if case .response(var response) = interaction.outcome {
            count += redact(&response)
            count += scrub(secrets, from: &response)
            interaction.outcome = .response(response)
        }
        return count
    }

    /// Redacts parts of a stream recorded as they arrive, as ``redact(_:)-(Interaction)`` redacts a stream
    /// body: `contentType` is the response's, `secrets` the request's ``secretValues(in:)`` (found before the
    /// request was redacted), removed wherever a part repeats them.
    func redact(_ parts: [RecordedStream.Part], contentType: String?, echoing secrets: [String]) -> [RecordedStream.Part] {
        guard !parts.isEmpty else { return parts }
        var response = RecordedResponse(
            status: 200, headers: HTTPHeaders(contentType.map { [HTTPHeader(name: "Content-Type", value: $0)] } ?? []),
            body: .stream(RecordedStream(parts)))
        redact(&response)
        _ = scrub(secrets, from: &response)
        guard case .stream(let stream) = response.body.form else { return parts }
        return stream.parts
    }

    /// Redacts every interaction and error template of `cassette` in place and returns what changed.
    @discardableResult
    package func redact(_ cassette: inout Cassette) -> RedactionCount {
        var count = RedactionCount()
        for index in cassette.interactions.indices {
            count += redact(&cassette.interactions[index])
        }
        for name in cassette.errorTemplates.keys.sorted() {
            count += redact(&cassette.errorTemplates[name]!)
        }
        return count
    }

    private func redactCounting(_ headers: inout HTTPHeaders) -> Int {
        let redacted = redact(headers)
        let changed = zip(headers.lines, redacted.lines).count { $0.value != $1.value }
        if changed > 0 { headers = redacted }
        return changed
    }

    /// Form bodies through the form rules, JSON (stored as JSON, or text and bytes with a JSON type) as a value.
    private func redactCounting(_ body: inout RecordedBody, contentType: String?) -> Int {
        let mediaType = MediaType(contentType)
        switch body.form {
        case .empty:
            return 0
        case .json(let value, let layout):
            var changed = 0
            let redacted = redactingURLParameters(in: redactJSON(value, changed: &changed), changed: &changed)
            if changed > 0 { body = .json(redacted, layout: layout) }
            return changed
        case .text(let text):
            let fields = redactBytes(Data(text.utf8), mediaType: mediaType, contentType: contentType)
            let urls = redactingURLParameters(in: fields.map { String(decoding: $0.data, as: UTF8.self) } ?? text)
            guard fields != nil || urls.count > 0 else { return 0 }
            body = .text(urls.text)
            return (fields?.changed ?? 0) + urls.count
        case .binary(let data):
            guard let redacted = redactBytes(data, mediaType: mediaType, contentType: contentType) else { return 0 }
            body = .binary(redacted.data)
            return redacted.changed
        case .stream(var stream):
            // Event data is usually JSON (a streaming API's payloads): redacted as JSON when it parses.
            var changed = 0
            for index in stream.parts.indices {
                switch stream.parts[index].content {
                case .event(var fields):
                    guard let data = fields.data else { continue }
                    let json = redactBytes(Data(data.utf8), mediaType: MediaType("application/json"), contentType: "application/json")
                    let urls = redactingURLParameters(in: json.map { String(decoding: $0.data, as: UTF8.self) } ?? data)
                    guard json != nil || urls.count > 0 else { continue }
                    fields.data = urls.text
                    stream.parts[index].content = .event(fields)
                    changed += (json?.changed ?? 0) + urls.count
                case .text(let text):
                    let urls = redactingURLParameters(in: text)
                    guard urls.count > 0 else { continue }
                    stream.parts[index].content = .text(urls.text)
                    changed += urls.count
                case .binary:
                    continue
                }
            }
            if changed > 0 { body = .stream(stream) }
            return changed
        }
    }

    private struct RedactedBytes {
        let data: Data
        let changed: Int
    }

    private func redactBytes(_ data: Data, mediaType: MediaType, contentType: String?) -> RedactedBytes? {
        if mediaType.isFormURLEncoded {
            let redacted = redact(body: data, contentType: contentType)
            guard redacted != data else { return nil }
            let changed = RedactionRules.changedPieces(Substring(decoding: data, as: UTF8.self), Substring(decoding: redacted, as: UTF8.self))
            return RedactedBytes(data: redacted, changed: changed)
        }
        guard mediaType.isJSON, let value = try? CassetteJSON(parsing: data) else { return nil }
        var changed = 0
        let redacted = redactJSON(value, changed: &changed)
        guard changed > 0 else { return nil }
        // Kept in the body's own layout when it had one of the common ones, so only the secrets differ.
        let layout = JSONLayout.reproducing(data, from: value) ?? .compact
        return RedactedBytes(data: Data(layout.render(redacted)), changed: changed)
    }

    /// `value` with the secret URL parameters in every string (at any depth) replaced, each one counted.
    private func redactingURLParameters(in value: CassetteJSON, changed: inout Int) -> CassetteJSON {
        switch value {
        case .string(let text):
            let redacted = redactingURLParameters(in: text)
            changed += redacted.count
            return redacted.count == 0 ? value : .string(redacted.text)
        case .object(let members):
            return .object(members.mapValues { redactingURLParameters(in: $0, changed: &changed) })
        case .array(let elements):
            return .array(elements.map { redactingURLParameters(in: $0, changed: &changed) })
        default:
            return value
        }
    }

    /// Members named by the rules get the placeholder unless they are `null` or already the placeholder.
    func redactJSON(_ value: CassetteJSON, changed: inout Int) -> CassetteJSON {
        switch value {
        case .object(let members):
            var copy = members
            for (key, member) in members {
                if redactsField(key) {
                    if member != .null, member != .string(Self.placeholder) {
                        copy[key] = .string(Self.placeholder)
                        changed += 1
                    }
                } else {
                    copy[key] = redactJSON(member, changed: &changed)
                }
            }
            return .object(copy)
        case .array(let elements):
            return .array(elements.map { redactJSON($0, changed: &changed) })
        default:
            return value
        }
    }

    private static func query(of target: String) -> Substring {
        guard let mark = target.firstIndex(of: "?") else { return "" }
        return target[target.index(after: mark)...]
    }

    /// How many `&`-separated pieces differ between two forms of the same query or form body.
    private static func changedPieces(_ before: Substring, _ after: Substring) -> Int {
        let old = before.split(separator: "&", omittingEmptySubsequences: false)
        let new = after.split(separator: "&", omittingEmptySubsequences: false)
        return zip(old, new).count { $0 != $1 }
    }
}
