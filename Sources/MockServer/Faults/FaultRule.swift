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
    /// Only GraphQL requests for this operation (its `operationName`, else the name of the first operation its
    /// document defines; one of them, for a batch), compared exactly; `nil` (the default) means every request.
    public var operation: String?

    /// Creates a rule. A `refuse` fault acts before any request is read, so it cannot take a path, method or
    /// operation filter; ``FaultPlan/init(seed:rules:)`` rejects such a rule.
    public init(_ fault: Fault, when trigger: FaultTrigger = .always, path: String? = nil, method: String? = nil, operation: String? = nil) {
        self.fault = fault
        self.trigger = trigger
        self.path = path.map(PathGlob.init)
        self.method = method?.uppercased()
        self.operation = operation
    }

    /// Whether a request with `method` and `path` as matching compares them (upper-case, normalized: see
    /// ``RequestParts``) and the GraphQL `operations` it asks for passes this rule's filters.
    func considers(method requestMethod: String, path requestPath: String, operations: [String] = []) -> Bool {
        if let method, method != requestMethod { return false }
        if let path, !path.matches(requestPath) { return false }
        if let operation, !operations.contains(operation) { return false }
        return true
    }

    /// The CLI spelling, e.g. `status=503,when=first:2,path=/users*,method=GET` or `status=503,operation=Viewer`.
    public var description: String {
        var text = fault.description
        if trigger != .always { text += ",when=\(trigger)" }
        if let path { text += ",path=\(path)" }
        if let method { text += ",method=\(method)" }
        if let operation { text += ",operation=\(operation)" }
        return text
    }
}
