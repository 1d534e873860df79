/// The requests a recording server forwarded but did not record, because the upstream could not be reached
/// (see ``UpstreamOutcome/unreachable(_:)``) or sent nothing for the recorder's timeout (see
/// ``RecordingOptions/timeout``): the recording is short of them, and the test that made it fails saying so
/// (see ``CassetteSession``).
struct UnrecordedRequests: Sendable {
    /// How many requests met it.
    private(set) var count = 0
    /// The first of them, `METHOD TARGET`.
    let first: String
    /// Why the first was not recorded: a `timeout` when the upstream sent nothing in time, else the reason it
    /// could not be reached.
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
    /// that recorded `file` fails with, as `upstreamUnreachable`, or `upstreamTimedOut` when the first request
    /// timed out after `timeout`.
    func error(upstream: Upstream, timeout: Duration, file: String) -> MockServerError {
        let requests = count == 1 ? "1 request" : "\(count) requests"
        let unrecorded = "so nothing was recorded for \(requests) (the first: \(first)) in \(file)"
        guard failure.kind != .timeout else {
            return MockServerError(
                .upstreamTimedOut,
                "the upstream \(upstream) sent nothing for \(DurationSpelling.milliseconds(timeout)) ms, "
                    + "the recorder's upstream timeout, \(unrecorded); give it longer (RecordingOptions.timeout, or `recorder capture "
                    + "--upstream-timeout`) and record again")
        }
        let why = failure.message.map { " (\($0))" } ?? ""
        return MockServerError(
            .upstreamUnreachable,
            "the upstream \(upstream) could not be reached\(why), \(unrecorded); "
                + "start the upstream (or point \(RecordVariables.upstream) at one that runs) and record again")
    }
}
