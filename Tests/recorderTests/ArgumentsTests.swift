@testable import recorder
import Testing

@Suite struct ArgumentsTests {
    private func parse(_ arguments: [String]) throws(RecorderError) -> Arguments {
        try Arguments(arguments, options: ["port", "fault", "out"], flags: ["strict"], command: "replay")
    }

    @Test func optionsFlagsAndPositionals_inAnyOrder() throws {
        let parsed = try parse(["a.json", "--port", "8080", "--fault=reset", "--strict", "--fault", "empty", "--", "--b.json"])
        #expect(parsed.positionals == ["a.json", "--b.json"])
        #expect(try parsed.integer("port", in: 0...65535) == 8080)
        #expect(parsed.all("fault") == ["reset", "empty"])
        #expect(parsed.flag("strict"))
        #expect(try parsed.single("out") == nil)
    }

    @Test(arguments: [
        (["--colour"], "replay does not take the option '--colour'; run `recorder replay --help` for its options"),
        (["-x"], "replay does not take the option '-x'; run `recorder replay --help` for its options"),
        (["--prot", "1"], "replay does not take the option '--prot'; did you mean '--port'? run `recorder replay --help` for its options"),
        (["--stri"], "replay does not take the option '--stri'; did you mean '--strict'? run `recorder replay --help` for its options"),
        (["--faults=x"], "replay does not take the option '--faults'; did you mean '--fault'? run `recorder replay --help` for its options"),
        (["--port"], "--port needs a value"),
        (["--strict=yes"], "--strict takes no value"),
    ])
    func badCommandLines_areUsageErrors(arguments: [String], message: String) {
        #expect(throws: RecorderError.usage(message)) { try parse(arguments) }
    }

    @Test func valueReads_nameTheOption() throws {
        #expect(throws: RecorderError.usage("--port 'http' is not a whole number from 0 to 65535")) {
            try parse(["--port", "http"]).integer("port", in: 0...65535)
        }
        #expect(throws: RecorderError.usage("--out is given 2 times; give it once")) {
            try parse(["--out", "a", "--out", "b"]).single("out")
        }
        #expect(throws: RecorderError.usage("--out is required")) { try parse([]).required("out") }
        #expect(throws: RecorderError.usage("replay takes at most one cassette, but 'b' is one too many")) {
            try parse(["a", "b"]).expectPositionals(0...1, what: "at most one cassette", command: "replay")
        }
    }

    @Test(arguments: [["-1"], ["-"], ["-42", "--strict"]])
    func loneDashAndNegativeNumbers_arePositionals(arguments: [String]) throws {
        let parsed = try parse(arguments)
        #expect(parsed.positionals == arguments.filter { $0 != "--strict" })
    }

    @Test func exitStatus_isTwoForUsage_oneForFailure() {
        #expect(RecorderError.usage("x").exitStatus == 2)
        #expect(RecorderError.failure("x").exitStatus == 1)
    }
}
