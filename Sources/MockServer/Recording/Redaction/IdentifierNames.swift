/// Names whose values are identifiers, cursors or digests: random by design, and no credential. The one list,
/// for headers, query and form fields, JSON keys and URL parameters alike.
///
/// A value under one of these names is never a secret by its name, nor for merely looking random; only a
/// precise credential format (a JSON Web Token, a GitHub or AWS key; see ``CredentialFormat``) in it still is.
/// Names are compared after ``squashed(_:)``: lower case, without the `-` and `_` inside them, so `UploadId`,
/// `uploadId`, `upload_id` and `x-upload-id` are one name; a leading `_` is kept (Kinto's `_token` is a
/// cursor, `token` a credential). A name also counts when it ends in one of ``suffixes``
/// (`X-Vendor-Request-Id`, `x-amz-copy-source-version-id`).
///
/// A project adds names of its own with `allow` in its rules file (see ``ProjectRules``).
enum IdentifierNames {
    /// The names, squashed.
    static let names: Set<String> = [
        // Request and trace identifiers in headers (most end in one of the suffixes).
        "xamzid2", "xamzcfid", "traceparent", "tracestate", "xcloudtracecontext", "cfray", "xb3spanid", "xb3parentspanid",
        "xdatadogparentid",
        // Object and upload identifiers: S3's UploadId (XML, JSON, query), and a plain `id`.
        "id", "uploadidmarker", "nextuploadidmarker", "versionidmarker", "nextversionidmarker",
        // Pagination cursors: S3 (ContinuationToken, markers), AWS (NextToken), Google (pageToken), Kinto
        // (_token), Slack and Stripe (cursor), GraphQL connections (endCursor, after), sync tokens, OData
        // ($skiptoken, $deltatoken), OAI-PMH (resumptionToken).
        "continuationtoken", "nextcontinuationtoken", "starttoken", "nexttoken", "pagetoken", "nextpagetoken", "prevpagetoken",
        "previouspagetoken", "paginationtoken", "nextpaginationtoken", "synctoken", "nextsynctoken", "_token", "cursor",
        "nextcursor", "prevcursor", "previouscursor", "startcursor", "endcursor", "after", "before", "marker", "nextmarker",
        "keymarker", "nextkeymarker", "skiptoken", "$skiptoken", "deltatoken", "$deltatoken", "resumptiontoken",
    ]

    /// Endings that make a name an identifier, squashed: request, trace, correlation, upload and version IDs, and
    /// digests of content (S3's `x-amz-checksum-sha256`, `Content-MD5`, `Digest`), random-looking and public.
    static let suffixes = [
        "requestid", "traceid", "correlationid", "uploadid", "versionid", "checksum", "digest", "sha256", "sha1", "md5", "crc32",
        "crc32c", "crc64nvme",
    ]

    /// Whether `name` names an identifier or a cursor.
    static func contains(_ name: String) -> Bool {
        let squashed = squashed(name)
        return names.contains(squashed) || suffixes.contains { squashed.hasSuffix($0) }
    }

    /// `name` in lower case without `-` and `_`, except those it starts with: `NextContinuationToken` and
    /// `next-continuation-token` are `nextcontinuationtoken`, `_token` stays `_token`.
    static func squashed(_ name: String) -> String {
        var result = ""
        var leading = true
        for character in name.lowercased() {
            if character == "-" || character == "_" {
                if leading { result.append(character) }
                continue
            }
            leading = false
            result.append(character)
        }
        return result
    }
}
