import ServiceReplayShared
import Testing

/// The one rule behind every "did you mean …?": a prefix, else at most two edits and fewer than the name's length.
@Suite struct NearestNameTests {
    @Test(arguments: [("kitten", "sitting", 3), ("", "abc", 3), ("abc", "", 3), ("port", "port", 0), ("prot", "port", 2), ("fault", "faults", 1)])
    func editDistance_isLevenshteins(a: String, b: String, distance: Int) {
        #expect(NearestName.editDistance(a, b) == distance)
        #expect(NearestName.editDistance(b, a) == distance)
    }

    @Test func nearest_prefersAPrefix_thenTheClosest_andNothingFar() {
        let names = ["fault", "out", "port", "strict"]
        #expect(NearestName.nearest(to: "stri", among: names) == "strict")
        #expect(NearestName.nearest(to: "st", among: names) == "strict")
        #expect(NearestName.nearest(to: "prot", among: names) == "port")
        #expect(NearestName.nearest(to: "faults", among: names) == "fault")
        #expect(NearestName.nearest(to: "colour", among: names) == nil)
        // A candidate no longer than the edits it takes is no hint
        #expect(NearestName.nearest(to: "x", among: ["ab"]) == nil)
    }
}
