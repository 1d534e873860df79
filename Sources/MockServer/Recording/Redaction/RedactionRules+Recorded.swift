import Foundation

/// Redaction of recorded exchanges (recording, `recorder redact`, HAR import), counting what changed, and the
/// findings `recorder lint` reports: the values such a redaction would replace, so that `lint` flags exactly
/// what `redact` replaces.
///
/// Secret headers, query parameters, form fields and JSON members at any depth get ``placeholder``, and so do
/// the secret query parameters of URLs written in header values, JSON strings, text bodies and stream parts (a
/// presigned URL's signature; see ``redactingURLParameters(in:)``), and words of a precise credential format in
/// text. Applying them twice changes nothing the second time. See ``RedactionPass`` for how each kind of body
/// is kept.
extension RedactionRules {
    /// Redacts `request` in place (headers, query, body) and returns what changed.
    @discardableResult
    package func redact(_ request: inout RecordedRequest) -> RedactionCount {
        var pass = RedactionPass(self)
        pass.redact(&request)
        return pass.count
    }

    /// Redacts `response` in place (headers, body) and returns what changed.
    @discardableResult
    package func redact(_ response: inout RecordedResponse) -> RedactionCount {
        var pass = RedactionPass(self)
        pass.redact(&response)
        return pass.count
    }

    /// Redacts an interaction's request and response in place and returns what changed. Secrets the
    /// request carried are also removed wherever the response repeats them (an echo service, an error
    /// message quoting the token), in its header values and text or JSON body.
    @discardableResult
    package func redact(_ interaction: inout Interaction) -> RedactionCount {
        var pass = RedactionPass(self)
        pass.redact(&interaction)
        return pass.count
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

    /// The secrets ``redact(_:)-(Interaction)`` would replace in `interaction`, one per value, in the order
    /// request headers, query, body, then response headers, body, and the request's secrets it repeats.
    package func findings(in interaction: Interaction) -> [SecretFinding] {
        var copy = interaction
        var pass = RedactionPass(self)
        pass.redact(&copy)
        return pass.findings
    }

    /// The secrets ``redact(_:)-(RecordedResponse)`` would replace in `response` (an error template).
    package func findings(in response: RecordedResponse) -> [SecretFinding] {
        var copy = response
        var pass = RedactionPass(self)
        pass.redact(&copy)
        return pass.findings
    }

    /// The secret values of `request` as a response may repeat them (see ``RedactionPass/echoes``), for
    /// ``redact(_:contentType:echoing:)`` on the parts of a stream recorded as they arrive.
    func secretValues(in request: RecordedRequest) -> [RedactionPass.Echo] {
        var copy = request
        var pass = RedactionPass(self)
        pass.redact(&copy)
        return pass.echoes
    }

    /// Redacts parts of a stream recorded as they arrive, as ``redact(_:)-(Interaction)`` redacts a stream
    /// body: `contentType` is the response's, `secrets` the request's ``secretValues(in:)`` (found before the
    /// request was redacted), removed wherever a part repeats them.
    func redact(_ parts: [RecordedStream.Part], contentType: String?, echoing secrets: [RedactionPass.Echo]) -> [RecordedStream.Part] {
        guard !parts.isEmpty else { return parts }
        var pass = RedactionPass(self)
        let redacted = pass.redact(parts, place: "response body", side: .response, firstIndex: 0)
        return pass.scrubbing(secrets, from: redacted, firstIndex: 0)
    }
}

extension RedactionPass {
    /// Redacts `request` in place: headers, query, body.
    mutating func redact(_ request: inout RecordedRequest) {
        request.headers = redact(request.headers, side: .request)
        request.target = redact(target: request.target)
        redact(&request.body, contentType: request.headers["Content-Type"], side: .request)
    }

    /// Redacts `response` in place: headers, body.
    mutating func redact(_ response: inout RecordedResponse) {
        response.headers = redact(response.headers, side: .response)
        redact(&response.body, contentType: response.headers["Content-Type"], side: .response)
    }

    /// Redacts an interaction in place, then removes from its response (or its WebSocket conversation) the
    /// request's secrets it repeats.
    mutating func redact(_ interaction: inout Interaction) {
        redact(&interaction.request)
        switch interaction.outcome {
        case .response(var response):
            redact(&response)
            scrub(echoes, from: &response)
            interaction.outcome = .response(response)
        case .webSocket(var conversation):
            redact(&conversation)
            interaction.outcome = .webSocket(conversation)
        case .failure:
            return
        }
    }
}
