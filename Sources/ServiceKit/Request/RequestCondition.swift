/// A condition on the server's current version of a resource, sent with the request (RFC 9110 §13.1). It
/// names a version by the entity tag a response gave in its `ETag` header (``RawResponse/etag``), written
/// as the server wrote it, quotes and any `W/` included (`"1434641515332"`, `W/"0815"`), or `*` for any
/// version. A service returns it from ``WebService/condition``:
///
/// ```swift
/// var condition: RequestCondition? { .ifMatch(etag) }   // change it only if nobody else did meanwhile
/// ```
public enum RequestCondition: Hashable, Sendable {
    /// `If-Match`: act only if the server's current version is this one, so that a change made elsewhere
    /// in the meantime is not overwritten. When it is not, the server answers 412 and the call fails with
    /// ``WebServiceError/Service/preconditionFailed``. Servers compare strongly here: a weak tag (`W/"…"`)
    /// never matches. `*`: only if the resource exists.
    case ifMatch(String)
    /// `If-None-Match`: answer only if the server's current version is not this one. When it is, the server
    /// answers 304 and the call fails with ``WebServiceError/Service/notModified``: the copy already loaded
    /// is current. `*` with a PUT: create only if nothing exists yet (412 otherwise).
    case ifNoneMatch(String)

    /// The header field that carries the condition, and its value.
    var header: (name: String, value: String) {
        switch self {
        case .ifMatch(let tag): ("If-Match", tag)
        case .ifNoneMatch(let tag): ("If-None-Match", tag)
        }
    }
}
