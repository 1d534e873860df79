import ServiceReplayShared
extension HTTPRequest {
    /// The header in which ``HostRouter`` carries the authority a routed client asked for: see
    /// ``HostRouter/hostHeader``, declared in ServiceReplayShared because the app side sends it too.
    static let routedHostHeader = HostRouter.hostHeader

    /// The request with `Host` put back to the authority a routed client asked for, which ``HostRouter``
    /// carries in ``HostRouter/hostHeader`` because Apple's URLSession may replace a `Host` set on a request;
    /// the carrying header is removed, so replay, matching and recording see the request as the client sent
    /// it. The servers' handlers call it first thing (``ReplayHandler``, ``RecordingHandler``); the wire knows
    /// nothing of routing.
    func restoringRoutedHost() -> HTTPRequest {
        routedHostRestored ?? self
    }

    /// ``restoringRoutedHost()`` for a request that was routed, `nil` for any other: a caller that answers
    /// `self` when it is `nil` makes no copy of the request, which every request would pay for.
    var routedHostRestored: HTTPRequest? {
        guard let authority = headers[Self.routedHostHeader] else { return nil }
        var restored = self
        restored.headers.remove(name: Self.routedHostHeader)
        restored.headers.set(name: "Host", value: authority)
        return restored
    }
}
