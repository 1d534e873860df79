import Foundation

// A server's part in the fault coverage files. Here, in the engine, because coverage sits below the server and
// takes plain values.

extension FaultCoverage {
    /// Adds what `server` saw to the files the environment names; does nothing when it names none. A file
    /// that cannot be written earns a one-sentence warning on standard error, naming it and why: a test's
    /// outcome never depends on it.
    static func record(_ server: CassetteServer, environment: [String: String] = FaultCoverage.variablesSet) {
        record(entries: { server.journal.entries }, refusedConnections: { server.refusedConnections }, environment: environment)
    }

    /// The two variables that name the files, those set: read one by one, not by copying the whole
    /// environment, as every server's stop reads them.
    static var variablesSet: [String: String] {
        var set: [String: String] = [:]
        for name in [reportVariable, logVariable] {
            if let value = getenv(name) { set[name] = String(cString: value) }
        }
        return set
    }

    /// ``record(_:environment:)``'s work. Throws ``MockServerError`` `fileSystem`, naming the file and the
    /// system's reason, when a file or its folder cannot be created or written.
    static func write(_ server: CassetteServer, environment: [String: String]) throws(MockServerError) {
        try write(entries: { server.journal.entries }, refusedConnections: { server.refusedConnections }, environment: environment)
    }
}
