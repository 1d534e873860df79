/// The requests a recording server could not forward because the upstream could not be reached (see
/// ``UpstreamForwarder/Outcome/unreachable(_:)``): none of them was recorded, so the recording is short of
/// them, and the test that made it fails saying so (see ``CassetteSession``).
struct UnreachableUpstream: Sendable {
    /// How many requests met it.
    private(set) var count = 0
    /// The first of them, `METHOD TARGET`.
    let first: String
    /// Why the first could not be forwarded.
    let failure: TransportFailure

    init(first: String, failure: TransportFailure) {
        self.first = first
        self.failure = failure
    }

    /// Counts one more request.
    mutating func add() {
        count += 1
    }

    /// `the upstream http://127.0.0.1:8001 could not be reached (Could not connect to ...: Connection refused.),
    /// so nothing was recorded for 2 requests (the first: GET /users) in Recordings/x.json; ...`: what the test
    /// that recorded `file` fails with.
    func sentence(upstream: Upstream, file: String) -> String {
        let why = failure.message.map { " (\($0))" } ?? ""
        let requests = count == 1 ? "1 request" : "\(count) requests"
        return "the upstream \(upstream) could not be reached\(why), so nothing was recorded for \(requests) (the first: \(first)) in \(file); "
            + "start the upstream (or point \(CassetteSession.upstreamVariable) at one that runs) and record again"
    }
}
