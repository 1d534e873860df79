/// The names of the environment variables that choose how a test's cassettes are recorded. The sessions read
/// them (``RecordMode/fromEnvironment(_:)``, ``CassetteSession``); they are spelled here, below the sessions,
/// so that the messages of the engine, the recorder, drift and lint can say which one to set.
enum RecordVariables {
    /// The record mode: see ``RecordMode``.
    static let record = "MOCKSERVER_RECORD"
    /// The upstream every recording forwards to: see ``CassetteSession/upstreamVariable``.
    static let upstream = "MOCKSERVER_UPSTREAM"
}
