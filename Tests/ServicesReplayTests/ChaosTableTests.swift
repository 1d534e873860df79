import Testing

/// The table a chaos run prints, word for word.
@Suite struct ChaosTableTests {
    @Test func table_countsEachFaultsOutcomes_byFamilyAndCase() {
        // Given calls untouched, hit by one fault, and one hit by two (a retry after a reset)
        let records = [
            ChaosRecord(call: "feed", repetition: 1, faults: [], outcome: "ok"),
            ChaosRecord(call: "feed", repetition: 2, faults: ["reset,when=p:0.1"], outcome: "network.connectionLost"),
            ChaosRecord(call: "login", repetition: 1, faults: ["reset,when=p:0.1"], outcome: "network.connectionLost"),
            ChaosRecord(call: "login", repetition: 2, faults: ["status=503,when=p:0.1"], outcome: "service.httpStatus(503)"),
            ChaosRecord(call: "friends", repetition: 1, faults: ["reset,when=p:0.1", "status=503,when=p:0.1"], outcome: "ok"),
            ChaosRecord(call: "friends", repetition: 2, faults: ["stall,when=p:0.1"], outcome: "network.timedOut"),
        ]

        // When they are tabulated
        let text = ChaosTable(records: records).text

        // Then untouched calls come first, then each rule with its successes and error cases by count
        #expect(
            text == """
                fault injected        | calls | ok | network error    | service error
                ----------------------+-------+----+------------------+------------------
                (none)                |     1 |  1 |                  |
                reset,when=p:0.1      |     3 |  1 | connectionLost 2 |
                stall,when=p:0.1      |     1 |  0 | timedOut 1       |
                status=503,when=p:0.1 |     2 |  1 |                  | httpStatus(503) 1
                """)
    }
}
