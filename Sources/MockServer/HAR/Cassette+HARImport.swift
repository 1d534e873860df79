import Foundation

extension Cassette {
    /// The cassette held by a HAR archive, with the defaults of ``HARImportOptions``; see
    /// ``importing(_:options:)``, which also reports skipped entries and redactions.
    init(har document: HARDocument, options: HARImportOptions = HARImportOptions()) throws(MockServerError) {
        self = try Cassette.importing(document, options: options).cassette
    }

    /// Converts a HAR archive into a cassette, redacted with ``HARImportOptions/redaction``.
    ///
    /// - One upstream per cassette: the first kept entry's `scheme://host[:port]` (or, for an archive written
    ///   by ``har()``, the upstream it records, path included). Without ``HARImportOptions/host`` every entry
    ///   must share it; with it, entries for other hosts are skipped and counted.
    /// - Request and response headers keep their order and repeats; bodies come from `postData.text` (or its
    ///   `params` when the text is absent) and `content.text` (base64 when `encoding` says so), as decoded
    ///   bytes. For archives from other programs, HTTP/2 pseudo-headers and the `Content-Encoding`,
    ///   `Transfer-Encoding` and stale `Content-Length` headers are dropped, since HAR writers store bodies
    ///   decoded. `statusText`, `cookies`, `queryString` and `timings` are not read: the headers and the URL
    ///   already hold them.
    /// - `startedDateTime` becomes `recordedAt` (unknown for entries marked `_undated`), `time` becomes
    ///   `durationMs` (negative: unknown).
    /// - A response with status 0 is a transport failure: its kind is read from the comment `failure: KIND`
    ///   or guessed from `_error` (`REFUSED`, `TIMED_OUT`, anything else a reset), the message from `_error`.
    ///
    /// Throws ``MockServerError``: `multipleHosts` naming the first entry for another upstream, `noMatchingHost`
    /// when no entry is for the chosen host, `invalidField` naming the entry and field for URLs, dates,
    /// statuses, methods or bodies a cassette cannot hold.
    package static func importing(_ document: HARDocument, options: HARImportOptions = HARImportOptions()) throws(MockServerError) -> HARImport {
        let log = document.log
        let metadata = log.cassette
        var kept: [KeptEntry] = []
        var skipped = 0
        for (index, entry) in log.entries.enumerated() {
            let url = HARURL(entry.request.url)
            if let host = options.host {
                guard let url, url.isOnHost(host) else {
                    skipped += 1
                    continue
                }
                kept.append(KeptEntry(index: index, entry: entry, url: url))
            } else {
                guard let url else {
                    throw MockServerError(
                        code: .invalidField, entry: index, reason: "request.url \"\(entry.request.url)\" is not an absolute http or https URL")
                }
                kept.append(KeptEntry(index: index, entry: entry, url: url))
            }
        }
        if let host = options.host, kept.isEmpty, !log.entries.isEmpty {
            let hosts = Set(log.entries.compactMap { HARURL($0.request.url)?.origin }).sorted()
            throw MockServerError(code: .noMatchingHost, reason: "no entry is for \(host); the archive's hosts are \(hosts.joined(separator: ", "))")
        }
        if let first = kept.first, let other = kept.first(where: { $0.url.origin != first.url.origin }) {
            throw MockServerError(
                code: .multipleHosts, entry: other.index,
                reason: "\(other.url.origin) is another host than \(first.url.origin) of entry \(first.index)")
        }

        var upstream = kept.first?.url.origin ?? metadata?.upstream
        var prefix = ""
        if let recorded = metadata?.upstream, let recordedURL = HARURL(recorded), recordedURL.origin == kept.first?.url.origin {
            upstream = recorded
            let path = recordedURL.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            prefix = path.hasSuffix("/") ? String(path.dropLast()) : String(path)
        }

        let foreign = metadata == nil
        var redacted = RedactionCount()
        var interactions: [Interaction] = []
        for kept in kept {
            let target = try target(of: kept.url, under: prefix, upstream: upstream, entry: kept.index)
            var interaction = try Interaction(kept.entry, index: kept.index, target: target, foreign: foreign)
            redacted += options.redaction.redact(&interaction)
            interactions.append(interaction)
        }

        var cassette = Cassette(name: options.name ?? metadata?.name ?? "imported", upstream: upstream, interactions: interactions)
        if let metadata {
            try cassette.restore(metadata)
            cassette.note = log.comment
        } else {
            cassette.note = log.comment ?? "Imported from a HAR archive written by \(log.creator.name) \(log.creator.version)."
            cassette.recordedAt = interactions.first?.recordedAt
        }
        for name in cassette.errorTemplates.keys.sorted() {
            redacted += options.redaction.redact(&cassette.errorTemplates[name]!)
        }
        return HARImport(cassette: cassette, skippedEntries: skipped, redacted: redacted)
    }

    private struct KeptEntry {
        let index: Int
        let entry: HAREntry
        let url: HARURL
    }

    /// The target relative to the upstream's path prefix (`/v1`), which every URL must be under.
    private static func target(of url: HARURL, under prefix: String, upstream: String?, entry: Int) throws(MockServerError) -> String {
        guard !prefix.isEmpty else { return url.target }
        let rest = url.target.dropFirst(prefix.count)
        guard url.target.hasPrefix(prefix), rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?") else {
            throw MockServerError(
                code: .invalidField, entry: entry, reason: "request.url \(url.origin)\(url.target) is not under the upstream \(upstream ?? "")")
        }
        return rest.hasPrefix("/") ? String(rest) : "/" + rest
    }

    /// Takes back what ``har()`` kept in `_servicereplay`.
    private mutating func restore(_ metadata: HARCassetteMetadata) throws(MockServerError) {
        func invalid(_ field: String, _ reason: String) -> MockServerError {
            MockServerError(code: .invalidField, reason: "log._servicereplay.\(field): \(reason)")
        }
        guard let parsedOrigin = Origin(rawValue: metadata.origin) else {
            throw invalid("origin", "expected one of recorded, hand-written, found \"\(metadata.origin)\"")
        }
        origin = parsedOrigin
        if let text = metadata.recordedAt {
            guard let date = CassetteDate.parse(text) else { throw invalid("recordedAt", "\"\(text)\" is not an ISO 8601 date") }
            recordedAt = date
        }
        if let rules = metadata.matching {
            matching = MatchRules(
                ignoredQueryParameters: rules.ignoreQuery ?? [], ignoredBodyFields: rules.ignoreBodyFields ?? [],
                headers: rules.headers ?? [], ignoredBodyPaths: rules.ignoreBodyPaths ?? [],
                ignoredXMLElements: rules.ignoreXMLElements ?? [], ignoredBodies: rules.ignoreBody ?? [])
            if let problem = matching.bodyRuleProblem { throw invalid("matching.\(problem.key)", problem.reason) }
            if let policy = rules.afterLast {
                guard let parsed = AfterLastPolicy(rawValue: policy) else {
                    throw invalid("matching.afterLast", "expected one of repeat, cycle, fail, found \"\(policy)\"")
                }
                matching.afterLast = parsed
            }
        }
        for (name, response) in metadata.errorTemplates ?? [:] {
            guard (100...999).contains(response.status) else {
                throw invalid("errorTemplates.\(name).status", "expected a status code from 100 to 999, found \(response.status)")
            }
            errorTemplates[name] = try RecordedResponse(response, entry: nil, foreign: false)
        }
    }
}
