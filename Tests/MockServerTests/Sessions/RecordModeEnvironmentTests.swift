@testable import MockServer
import Testing

/// `RecordMode.fromEnvironment`: VCR's names, `MOCKSERVER_LIVE`, and one sentence for a bad value.
@Suite struct RecordModeEnvironmentTests {
    static let modes: [([String: String], RecordMode)] = [
        ([:], .none),
        (["MOCKSERVER_RECORD": ""], .none),
        (["MOCKSERVER_RECORD": "none"], .none),
        (["MOCKSERVER_RECORD": "once"], .once),
        (["MOCKSERVER_RECORD": " New-Episodes "], .newEpisodes),
        (["MOCKSERVER_RECORD": "all"], .all),
        (["MOCKSERVER_LIVE": "1"], .live),
        (["MOCKSERVER_LIVE": "1", "MOCKSERVER_RECORD": "all"], .live),
        (["MOCKSERVER_LIVE": "0", "MOCKSERVER_RECORD": "once"], .once),
    ]

    @Test(arguments: modes)
    func environment_choosesTheMode(environment: [String: String], mode: RecordMode) throws {
        #expect(try RecordMode.fromEnvironment(environment) == mode)
    }

    static let errors: [([String: String], String)] = [
        (
            ["MOCKSERVER_RECORD": "always"],
            "MOCKSERVER_RECORD='always' is not a record mode; use one of none, once, new-episodes, all, drift (or MOCKSERVER_LIVE=1)"
        ),
        (
            ["MOCKSERVER_RECORD": "live"],
            "MOCKSERVER_RECORD='live' is not a record mode; use one of none, once, new-episodes, all, drift (or MOCKSERVER_LIVE=1)"
        ),
        (["MOCKSERVER_LIVE": "maybe"], "MOCKSERVER_LIVE='maybe' is not one of 1, true, yes, 0, false, no"),
    ]

    @Test(arguments: errors)
    func badValue_failsWithTheAllowedValues(environment: [String: String], message: String) {
        #expect(throws: MockServerError(.invalidConfiguration, message)) { try RecordMode.fromEnvironment(environment) }
    }
}
