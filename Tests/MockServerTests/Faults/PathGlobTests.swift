@testable import MockServer
import Testing

@Suite struct PathGlobTests {
    @Test(arguments: [
        ("/users*", "/users", true), ("/users*", "/users/7/repos", true), ("/users*", "/user", false),
        ("/users/?", "/users/7", true), ("/users/?", "/users/77", false), ("*", "/anything", true),
        ("/a*b*c", "/aXXbYYc", true), ("/a*b*c", "/aXXbYY", false), ("/2.3/questions", "/2.3/questions", true),
        ("/2.3/questions", "/2.3/questionsX", false), ("", "", true), ("", "/", false),
    ])
    func glob_matchesWholePath(pattern: String, path: String, matches: Bool) {
        #expect(PathGlob(pattern).matches(path) == matches)
    }
}
