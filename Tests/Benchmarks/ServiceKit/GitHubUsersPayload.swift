#if os(macOS) || os(Linux)  // The benchmarks start child processes (Process), which iOS, tvOS and watchOS lack.
import Foundation

/// The benchmark's input: a JSON array of GitHub-style users (the shape of `GET /users`), 20 fields each,
/// `name`, `company`, `email`, `hireable` and `bio` null for some or all users, compact as an API sends it. Generated, so every run reads
/// the same bytes without a fixture file.
enum GitHubUsersPayload {
    static func json(users count: Int) -> Data {
        var text = "["
        text.reserveCapacity(count * 600)
        for number in 0..<count {
            if number > 0 {
                text += ","
            }
            text += user(number)
        }
        text += "]"
        return Data(text.utf8)
    }

    private static func user(_ number: Int) -> String {
        let login = "user\(number)"
        let name = number % 3 == 0 ? "null" : "\"User \(number)\""
        let company = number % 4 == 0 ? "\"@acme-corporation\"" : "null"
        let bio = number % 2 == 0 ? "\"Builds things \\\"for fun\\\" in \\u00c9vora.\"" : "null"
        let day = 1 + number % 28
        let created = "2011-0\(1 + number % 9)-\(day < 10 ? "0" : "")\(day)T\(10 + number % 14):2\(number % 10):1\(number % 10)Z"
        return """
            {"login":"\(login)","id":\(1000 + number),"node_id":"MDQ6VXNlcjEw\(number)MDA=",\
            "avatar_url":"https://avatars.githubusercontent.com/u/\(1000 + number)?v=4",\
            "url":"https://api.github.com/users/\(login)","html_url":"https://github.com/\(login)",\
            "repos_url":"https://api.github.com/users/\(login)/repos","type":"User","site_admin":\(number % 50 == 0),\
            "name":\(name),"company":\(company),"blog":"https://\(login).example.com/blog/index.html","location":"Lisbon, Portugal, Europe","email":null,"hireable":null,\
            "bio":\(bio),"public_repos":\(number % 90),"followers":\(number % 1000),"following":\(number % 7),\
            "created_at":"\(created)"}
            """
    }
}
#endif
