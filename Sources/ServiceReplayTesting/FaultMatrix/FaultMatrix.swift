import Foundation
import MockServer
import ServiceKit

/// Runs an app's own service (or any async call made through one) once without faults and then once under
/// every fault that applies, each on a fresh replay server of its cassette, and checks that each run ends in
/// the error family the fault stands for: the promise that a service handles both network-level and
/// service-level failures, kept in one call.
///
/// ```swift
/// let report = try await FaultMatrix.run(GitHubUserService(login: "octocat"), replaying: "github/users",
///                                        client: { baseURL in WebServiceClient(baseURL: baseURL, configuration: .init(timeout: 1)) })
/// #expect(report.failures.isEmpty, "\(report)")
/// ```
///
/// The rows and what each expects:
///
/// | faults | expected |
/// |---|---|
/// | `refuse`, `reset`, `empty`, each `truncate=...`, `malformed-chunk`, `garbage` | `.network(...)` |
/// | `stall`, `latency` beyond the client's timeout | `.network(.timedOut)` |
/// | `latency` and `throttle` within the timeout | the baseline value |
/// | `status=500`, `502`, `503`, `504` | `.service(.httpStatus(code))` |
/// | `status=429` (with `Retry-After`) | `.service(.rateLimited)` |
/// | `service-error=NAME`, each error template of the cassette | `.service(.httpStatus, .rateLimited or .errorPayload)` |
/// | `corrupt-body`, `empty-body`, `content-type=text/html` | `.service(.undecodableBody)` or `.service(.wrongContentType)` |
/// | streams: `corrupt-body`, `empty-body` | `.network(...)` or `.service(...)` (a damaged stream may read as broken off) |
/// | streams: `truncate=event:N`, `stall=event:N`, `error-event=NAME,after=N` | the error, after exactly N events |
/// | with a retry policy: `reset`, `empty`, `truncate=body:10`, `status=503`, `status=429`, each `when=first:1` | the baseline value |
///
/// The client is the one `client` builds for each run's base URL (and once before, for a port nothing listens
/// on, to read its timeout and retry policy), with its clock replaced by a `VirtualClock` standing at the
/// cassette's recording date. By default (``Timing/virtual``) the run's server is on that clock too: latency,
/// stall and throttle are waits on the clock, the client's timeout fires on it, and retries wait for nothing,
/// so a row's verdict never depends on the machine's speed and the matrix takes no wall time for its faults.
/// The report gives each row's virtual time beside its real one. A call whose requests the clock cannot see
/// (its own `URLSession`) is answered in real time and its row says "real-time"; ``Timing/real`` runs every
/// row so.
///
/// A run still going `margin` past the client's timeout times its attempts, in real time, is cancelled and
/// fails its row as one that never ended (a hang, told apart from a timeout); the baseline, which runs while a
/// suite starts its tests and may record from the upstream, gets at least ``defaultMargin``. A row whose fault
/// never fired fails too. Cassettes are found as
/// ``withReplay(_:in:upstream:configuration:client:now:filePath:function:fileID:line:column:_:)`` finds them.
///
/// The record mode (`MOCKSERVER_RECORD`) applies to the baseline alone, which takes the cassette's turn as a
/// test does: `once` records a missing cassette, `new-episodes` appends, `all` re-records once per process and
/// replaces the cassette only when every row passed. The rows always replay what the baseline replayed or
/// recorded, so they never record. Under `drift` and `MOCKSERVER_LIVE=1` only the baseline runs, against the
/// upstream, and the report says so.
public enum FaultMatrix {
    /// The clock a matrix's rows run on.
    public enum Timing: Sendable, Hashable {
        /// One `VirtualClock` per run, shared by its replay server and its client (the default): a fault's
        /// wait (latency, stall, throttle, a stream's gaps) and the client's timeout are compared on the clock,
        /// so each row's outcome follows from the fault and the client's timeout and retry policy, never from
        /// the machine's speed, and no row waits in real time. A call whose requests the clock cannot see (a
        /// client on its own `URLSession`, with its own timeout) is answered in real time: the report marks
        /// such a row "real-time".
        case virtual
        /// The real clock, for comparison: faults wait and timeouts fire in real time, as in production; only
        /// retries' waits stay on a virtual clock.
        case real
    }

    /// How many runs go at once by default: each holds a server and a connection or two, and the machine is
    /// usually running other tests too.
    public static let defaultParallelRuns = 4

    /// How far past the client's timeout (times its attempts) a run may go in real time by default before it is
    /// reported as never ended: 30 s. The guard is for hangs, not timeouts: on the virtual clock a slow machine
    /// only makes a run longer (a ThreadSanitizer suite starting its tests on two busy cores held a one-request
    /// baseline for 22 s), and its verdict stays the same.
    public static let defaultMargin: Duration = .seconds(30)

    /// Runs `service` through the matrix against the cassette `cassette`.
    /// - Parameters:
    ///   - service: the call; its response is compared with the baseline's by `==`.
    ///   - cassette: the cassette's name in `folder` (`github/users`).
    ///   - folder: the recordings folder; default as for `withReplay`: the folder `MOCKSERVER_RECORDINGS` names,
    ///     else the nearest `Recordings/` at or above the folder of `filePath`.
    ///   - upstream: the real API the baseline records from in a mode that records; default `nil` (the
    ///     cassette's own; `MOCKSERVER_UPSTREAM` wins over both).
    ///   - client: builds the client for a run's base URL; its clock is replaced by a virtual one.
    ///   - overrides: changed expectations and skipped faults, each with the reason the report prints.
    ///   - only: run this case alone (from ``cases(for:method:replaying:in:eventsBeforeFault:client:overrides:filePath:)``), after the baseline.
    ///   - parallel: runs at once; default ``defaultParallelRuns``.
    ///   - margin: how far past the client's timeout (times its attempts) a run may go in real time before it is
    ///     reported as never ended; default ``defaultMargin``. The baseline gets at least ``defaultMargin``.
    ///   - timing: the clock the rows run on; default ``Timing/virtual``.
    ///   - filePath: where to start looking for `Recordings/`; leave the default.
    ///   - function: the test's name, for the command that records a missing cassette; leave the default.
    /// - Returns: the report; its ``Report/failures`` are empty when every row passed. Under `drift` or
    ///   `MOCKSERVER_LIVE=1` it holds no rows and its ``Report/notice`` says why.
    /// - Throws: ``FaultMatrixError`` when the baseline fails or an override names no fault; ``MockServer/MockServerError``
    ///   when the cassette is missing in replay mode (naming the command that records it) or cannot be read,
    ///   when the record mode or upstream is invalid, and under `all` when the rows failed, so the new
    ///   recording was kept aside.
    public static func run<Service: WebService>(
        _ service: Service, replaying cassette: String, in folder: URL? = nil, upstream: String? = nil,
        client: @escaping @Sendable (URL) -> WebServiceClient = { WebServiceClient(baseURL: $0) },
        overrides: [Override] = [], only: Case? = nil, parallel: Int = defaultParallelRuns,
        margin: Duration = defaultMargin, timing: Timing = .virtual, filePath: String = #filePath, function: String = #function
    ) async throws -> Report where Service.Response: Equatable {
        let runner = try runner(
            subject: "\(Service.self)", cassette: cassette, folder: folder, upstream: upstream, filePath: filePath, function: function,
            client: client, idempotent: service.method.isIdempotent, eventsBeforeFault: nil, graphQL: service is any GraphQLService,
            margin: margin, timing: timing
        ) { client in
            do throws(WebServiceError) {
                return (.success(try await client.send(service)), nil)
            } catch {
                return (.failure(error), nil)
            }
        }
        return try await runner.run(try selected(runner, overrides, only), parallel: parallel)
    }

    /// Runs the streaming `service` through the matrix: the rows of a plain call, plus the stream faults
    /// after `eventsBeforeFault` events. The events received are compared with the baseline's by `==`.
    /// - Parameters:
    ///   - service: the call; the events it receives are compared with the baseline's by `==`.
    ///   - cassette: the cassette's name in `folder` (`github/users`).
    ///   - folder: the recordings folder; default as for `withReplay`: the folder `MOCKSERVER_RECORDINGS` names,
    ///     else the nearest `Recordings/` at or above the folder of `filePath`.
    ///   - upstream: the real API the baseline records from in a mode that records; default `nil` (the
    ///     cassette's own; `MOCKSERVER_UPSTREAM` wins over both).
    ///   - eventsBeforeFault: how many events arrive before a stream fault strikes; default 1 (a negative
    ///     count counts as 0).
    ///   - client: builds the client for a run's base URL; its clock is replaced by a virtual one.
    ///   - overrides: changed expectations and skipped faults, each with the reason the report prints.
    ///   - only: run this case alone (from ``cases(for:method:replaying:in:eventsBeforeFault:client:overrides:filePath:)``), after the baseline.
    ///   - parallel: runs at once; default ``defaultParallelRuns``.
    ///   - margin: how far past the client's timeout (times its attempts) a run may go in real time before it is
    ///     reported as never ended; default ``defaultMargin``. The baseline gets at least ``defaultMargin``.
    ///   - timing: the clock the rows run on; default ``Timing/virtual``.
    ///   - filePath: where to start looking for `Recordings/`; leave the default.
    ///   - function: the test's name, for the command that records a missing cassette; leave the default.
    /// - Returns: the report; its ``Report/failures`` are empty when every row passed. Under `drift` or
    ///   `MOCKSERVER_LIVE=1` it holds no rows and its ``Report/notice`` says why.
    /// - Throws: ``FaultMatrixError`` when the baseline fails or an override names no fault; ``MockServer/MockServerError``
    ///   when the cassette is missing in replay mode (naming the command that records it) or cannot be read,
    ///   when the record mode or upstream is invalid, and under `all` when the rows failed, so the new
    ///   recording was kept aside.
    public static func run<Service: StreamingService>(
        _ service: Service, replaying cassette: String, in folder: URL? = nil, upstream: String? = nil, eventsBeforeFault: Int = 1,
        client: @escaping @Sendable (URL) -> WebServiceClient = { WebServiceClient(baseURL: $0) },
        overrides: [Override] = [], only: Case? = nil, parallel: Int = defaultParallelRuns,
        margin: Duration = defaultMargin, timing: Timing = .virtual, filePath: String = #filePath, function: String = #function
    ) async throws -> Report where Service.Event: Equatable {
        let runner = try runner(
            subject: "\(Service.self)", cassette: cassette, folder: folder, upstream: upstream, filePath: filePath, function: function, client: client,
            idempotent: service.method.isIdempotent, eventsBeforeFault: max(0, eventsBeforeFault), margin: margin, timing: timing
        ) { client in
            var events: [Service.Event] = []
            do throws(WebServiceError) {
                for try await event in client.events(of: service) { events.append(event) }
                return (.success(events), events.count)
            } catch {
                return (.failure(error), events.count)
            }
        }
        return try await runner.run(try selected(runner, overrides, only), parallel: parallel)
    }

    /// Runs any async call the app makes through a client (a repository or view-model method) through the
    /// matrix. Each run must throw the ``ServiceKit/WebServiceError`` family its fault stands for, or return the fallback
    /// an override declares for it (`.expect(family: .network, .fallback(cached), because: ...)`); a value
    /// where an error was due is a swallowed error, a different value a stale one.
    /// - Parameters:
    ///   - name: the call's name in the report (`ProfileRepository.load`).
    ///   - cassette: the cassette's name in `folder` (`github/users`).
    ///   - folder: the recordings folder; default as for `withReplay`: the folder `MOCKSERVER_RECORDINGS` names,
    ///     else the nearest `Recordings/` at or above the folder of `filePath`.
    ///   - upstream: the real API the baseline records from in a mode that records; default `nil` (the
    ///     cassette's own; `MOCKSERVER_UPSTREAM` wins over both).
    ///   - idempotent: whether a retry policy may repeat the call (its requests are GETs); default `true`.
    ///   - client: builds the client for a run's base URL; its clock is replaced by a virtual one.
    ///   - overrides: changed expectations and skipped faults, each with the reason the report prints.
    ///   - only: run this case alone (from ``cases(for:method:replaying:in:eventsBeforeFault:client:overrides:filePath:)``), after the baseline.
    ///   - parallel: runs at once; default ``defaultParallelRuns``.
    ///   - margin: how far past the client's timeout (times its attempts) a run may go in real time before it is
    ///     reported as never ended; default ``defaultMargin``. The baseline gets at least ``defaultMargin``.
    ///   - timing: the clock the rows run on; default ``Timing/virtual``.
    ///   - filePath: where to start looking for `Recordings/`; leave the default.
    ///   - function: the test's name, for the command that records a missing cassette; leave the default.
    ///   - call: the call, given the run's client; its value is compared with the baseline's by `==`.
    /// - Returns: the report; its ``Report/failures`` are empty when every row passed. Under `drift` or
    ///   `MOCKSERVER_LIVE=1` it holds no rows and its ``Report/notice`` says why.
    /// - Throws: ``FaultMatrixError`` when the baseline fails or an override names no fault; ``MockServer/MockServerError``
    ///   when the cassette is missing in replay mode (naming the command that records it) or cannot be read,
    ///   when the record mode or upstream is invalid, and under `all` when the rows failed, so the new
    ///   recording was kept aside.
    public static func run<Value: Equatable & Sendable>(
        _ name: String, replaying cassette: String, in folder: URL? = nil, upstream: String? = nil, idempotent: Bool = true,
        client: @escaping @Sendable (URL) -> WebServiceClient = { WebServiceClient(baseURL: $0) },
        overrides: [Override] = [], only: Case? = nil, parallel: Int = defaultParallelRuns,
        margin: Duration = defaultMargin, timing: Timing = .virtual, filePath: String = #filePath, function: String = #function,
        _ call: @escaping @Sendable (WebServiceClient) async throws -> Value
    ) async throws -> Report {
        let runner = try runner(
            subject: name, cassette: cassette, folder: folder, upstream: upstream, filePath: filePath, function: function, client: client,
            idempotent: idempotent, eventsBeforeFault: nil, margin: margin, timing: timing
        ) { client in
            do {
                return (.success(try await call(client)), nil)
            } catch {
                return (.failure(error), nil)
            }
        }
        return try await runner.run(try selected(runner, overrides, only), parallel: parallel)
    }

    /// The rows `run` runs for a service of type `kind` (the stream rows too for a `StreamingService`), for
    /// `@Test(arguments:)`: each fault its own test case.
    ///
    /// ```swift
    /// @Test(arguments: try FaultMatrix.cases(for: GitHubUserService.self, replaying: "github/users", client: makeClient))
    /// func profile(_ fault: FaultMatrix.Case) async throws {
    ///     let report = try await FaultMatrix.run(GitHubUserService(login: "octocat"), replaying: "github/users",
    ///                                            client: makeClient, only: fault)
    ///     #expect(report.failures.isEmpty, "\(report)")
    /// }
    /// ```
    ///
    /// Give every parameter but `kind` and `method` as to `run`, whose `only` takes a case returned here.
    /// - Parameters:
    ///   - kind: the service type; a `StreamingService` gets the stream rows, a `GraphQLService` the
    ///     `graphql-error` row.
    ///   - method: the service's method (a POST, as a GraphQL operation's, is never retried); default GET.
    ///   - cassette: the cassette's name in `folder` (`github/users`).
    ///   - folder: the recordings folder; default as for `run`.
    ///   - eventsBeforeFault: for a `StreamingService`, how many events arrive before a stream fault strikes;
    ///     default 1 (a negative count counts as 0). Ignored for other services.
    ///   - client: builds a client, for a placeholder base URL; the rows depend on its timeout and retry policy.
    ///   - overrides: changed expectations and skipped faults (a skipped fault stays a case, which `run` reports
    ///     as skipped), and faults added as cases of their own.
    ///   - filePath: where to start looking for `Recordings/`; leave the default.
    /// - Returns: the cases in the order `run` runs them.
    /// - Throws: ``FaultMatrixError`` when an override names neither a fault of the matrix nor a valid fault
    ///   spec; ``MockServer/MockServerError`` when no recordings folder is found, or the cassette is missing in
    ///   replay mode or cannot be read.
    public static func cases(
        for kind: Any.Type, method: HTTPMethod = .get, replaying cassette: String, in folder: URL? = nil,
        eventsBeforeFault: Int = 1,
        client: @Sendable (URL) -> WebServiceClient = { WebServiceClient(baseURL: $0) },
        overrides: [Override] = [], filePath: String = #filePath
    ) throws -> [Case] {
        let (_, _, shape) = try shape(
            cassette: cassette, folder: folder, filePath: filePath, test: nil, client: client, idempotent: method.isIdempotent,
            eventsBeforeFault: kind is any StreamingService.Type ? max(0, eventsBeforeFault) : nil, graphQL: kind is any GraphQLService.Type)
        return try cases(for: shape, overrides: overrides)
    }

    private static func selected<Value>(_ runner: Runner<Value>, _ overrides: [Override], _ only: Case?) throws -> [Case] {
        let all = try cases(for: runner.shape, overrides: overrides)
        guard let only else { return all }
        guard let row = all.first(where: { $0.fault == only.fault }) else {
            throw FaultMatrixError(
                "the case '\(only.fault)' is not a row of \(runner.subject)'s matrix; build the arguments with the same cassette, client and overrides as the run"
            )
        }
        return [row]
    }

    private static func runner<Value>(
        subject: String, cassette: String, folder: URL?, upstream: String?, filePath: String, function: String,
        client: @escaping @Sendable (URL) -> WebServiceClient, idempotent: Bool,
        eventsBeforeFault: Int?, graphQL: Bool = false, margin: Duration, timing: Timing,
        call: @escaping @Sendable (WebServiceClient) async -> (result: Result<Value, any Error>, events: Int?)
    )
        throws -> Runner<Value>
    {
        let test = CassetteSession.testName(function)
        let (recordings, recordedAt, shape) = try shape(
            cassette: cassette, folder: folder, filePath: filePath, test: test, client: client,
            idempotent: idempotent, eventsBeforeFault: eventsBeforeFault, graphQL: graphQL)
        return Runner(
            subject: "\(subject) on \(cassette)", cassette: cassette, folder: recordings, upstream: upstream, test: test,
            recordedAt: recordedAt, shape: shape, margin: margin, timing: timing, makeClient: client, call: call)
    }

    /// The recordings folder, the cassette's date and the matrix's shape (its error templates, and the timeout
    /// and attempts of a client `client` builds). A cassette the record mode will record (missing under
    /// `once`, `all`, `new-episodes`, `drift` or `MOCKSERVER_LIVE=1`) has neither date nor templates yet.
    private static func shape(
        cassette: String, folder: URL?, filePath: String, test: String?, client: (URL) -> WebServiceClient,
        idempotent: Bool, eventsBeforeFault: Int?, graphQL: Bool
    ) throws -> (URL, Date?, Shape) {
        let recordings = try RecordingsFolder.forTest(folder, filePath: filePath)
        let file = recordings.appendingPathComponent(cassette.hasSuffix(".json") ? cassette : cassette + ".json")
        // Through the cache the replay servers read from, so the file is read and parsed once.
        let loaded: Cassette?
        if FileManager.default.fileExists(atPath: file.path) {
            loaded = try CassetteFileCache.shared.load(file).metadata
        } else if try RecordMode.fromEnvironment() == .none {
            throw CassetteSession.notFound(cassette, in: recordings, test: test)
        } else {
            loaded = nil
        }
        // A client for a port nothing listens on, only to read its settings: it sends nothing, so its
        // URLSessionTransport never makes a session.
        let settings = client(URL(string: "http://127.0.0.1:9")!).configuration
        let shape = Shape(
            eventsBeforeFault: eventsBeforeFault, idempotent: idempotent, timeout: settings.timeout,
            attempts: settings.retryPolicy?.maxAttempts ?? 1, templates: loaded.map { Array($0.errorTemplates.keys) } ?? [],
            graphQL: graphQL)
        return (recordings, loaded?.recordedAt, shape)
    }
}
