import Foundation

// A server's part in the fault coverage files. Here, in the engine, because coverage sits below the server and
// takes plain values.

extension FaultCoverage {
    /// Adds what `server` saw to the files the environment names; does nothing when it names none. A file
    /// that cannot be written earns a one-sentence warning on standard error, naming it and why: a test's
    /// outcome never depends on it.
    static func record(_ server: CassetteServer, environment: [String: String] = ProcessInfo.processInfo.environment) {
        record(entries: { server.journal.entries }, refusedConnections: { server.refusedConnections }, environment: environment)
    }

    /// ``record(_:environment:)``'s work. Throws ``MockServerError`` `fileSystem`, naming the file and the
    /// system's reason, when a file or its folder cannot be created or written.
    static func write(_ server: CassetteServer, environment: [String: String]) throws(MockServerError) {
        try write(entries: { server.journal.entries }, refusedConnections: { server.refusedConnections }, environment: environment)
    }
}
