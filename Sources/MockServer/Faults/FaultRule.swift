/// One line of a fault plan: which fault, when it fires, and which requests it considers.
public struct FaultRule: Sendable, Hashable, CustomStringConvertible {
    /// The failure to inject.
    public var fault: Fault
    /// When it fires among the requests that pass the filters; default ``FaultTrigger/always``.
    public var trigger: FaultTrigger
    /// Only requests whose path, as matching compares it (``RequestParts/normalizedPath(of:)``), matches;
    /// `nil` (the default) means every path.
    var path: PathGlob?
    /// Only requests with this method (compared case-insensitively, stored upper-case); `nil` (the
    /// default) means every method.
    public var method: String?

    /// Creates a rule. A `refuse` fault acts before any request is read, so it cannot take a path or
    /// method filter; ``FaultPlan/init(seed:rules:)`` rejects such a rule.
    public init(_ fault: Fault, when trigger: FaultTrigger = .always, path: String? = nil, method: String? = nil) {
        self.fault = fault
        self.trigger = trigger
        self.path = path.map(PathGlob.init)
        self.method = method?.uppercased()
    }

    /// Whether a request with `method` and `path` as matching compares them (upper-case, normalized: see
    /// ``RequestParts``) passes this rule's filters.
    func considers(method requestMethod: String, path requestPath: String) -> Bool {
        if let method, method != requestMethod { return false }
        if let path, !path.matches(requestPath) { return false }
        return true
    }

    /// The CLI spelling, e.g. `status=503,when=first:2,path=/users*,method=GET`.
    public var description: String {
        var text = fault.description
        if trigger != .always { text += ",when=\(trigger)" }
        if let path { text += ",path=\(path)" }
        if let method { text += ",method=\(method)" }
        return text
    }
}
