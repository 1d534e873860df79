/// ServiceKit: an app's web-service layer, one small type per API call. The protocol, client and
/// services arrive in their own files.
public enum ServiceKit {
    /// The library's version, reported by tools and in user agents.
    public static let version = "0.1.0"
}
