/// ServiceKit's own facts. Internal: a public type named as the module would hide the module's name, so that
/// `ServiceKit.WebServiceError` stopped resolving.
enum ServiceKit {
    /// The library's version, sent in the `User-Agent` header.
    static let version = "0.1.0"
}
