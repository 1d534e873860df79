import Foundation
import ServiceReplayShared

extension CassetteServer {
    /// What a UI test merges into `XCUIApplication.launchEnvironment` (or any launcher into a child process's
    /// environment) so that the app, calling `AppRouting.activate()` of the `MockServerAppRouting` product at
    /// start-up, sends every `http` and `https` request to this server, each carrying the host it was meant
    /// for: one variable, `MOCKSERVER_APP_SERVER`, holding ``baseURL`` (`http://127.0.0.1:PORT`).
    ///
    /// ```swift
    /// let app = XCUIApplication()
    /// app.launchEnvironment.merge(try server.launchEnvironment) { $1 }
    /// app.launch()
    /// ```
    ///
    /// The server must be listening first (``start()`` returns once it accepts connections), so the app's
    /// first request is served. The value names this server's port, chosen by the system, so parallel runs
    /// never clash. An app given it keeps it after ``stop()``, when nobody serves that port: its requests fail.
    /// - Throws: ``MockServerError`` `notRunning` before ``start()`` and after ``stop()``: there is no address
    ///   to give the app yet (or any more).
    public var launchEnvironment: [String: String] {
        get throws(MockServerError) {
            guard let baseURL else {
                throw MockServerError(
                    .notRunning, "the server is not running, so there is no address to give the app; start it before launching the app")
            }
            return [ProcessRouting.environmentVariable: baseURL.absoluteString]
        }
    }
}
