// profiles-app: the example's stand-in for an app under UI test, on a platform without a simulator. It links
// ServiceKit (through GitHubProfiles) and MockServerAppRouting, never MockServer. At start it activates the
// app-side routing from its launch environment and prints one line saying where its requests go; then it
// reads commands from standard input, one a line, and prints for each the line `ProfileCommand` gives (the iOS
// app in Examples/iOS shows the same lines):
//
//   profile LOGIN   ->  profile octocat: The Octocat (octocat), 8 public repositories
//                       profile octocat: service error: GitHub answered HTTP 503
//                       profile octocat: network error: The connection was lost before the request finished. Try again.
//
// A service-level error is the service's own (`ProfileService.Failure`, or a WebServiceError of the service
// family); a network-level one is a WebServiceError of the network family: ServiceKit's two error families.
// The API is GitHub's, or `GITHUB_API_URL` when set (a GitHub Enterprise host, say). It exits at the end of
// its input.
import Foundation
import GitHubProfiles
import MockServerAppRouting

/// Writes `line` to standard output at once: a test reads each answer as soon as it is printed, and stdio's
/// buffer would hold it back while the output is a pipe.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

// First thing, before any session is made: on Linux URLSession.shared takes its protocols when first used.
do {
    if let server = try AppRouting.activate() {
        say("routing: \(server.absoluteString)")
    } else {
        say("routing: off")
    }
} catch {
    // The app goes on: every request of it fails with this sentence instead of leaving the machine.
    say("routing: refused: \(error.description)")
}

let api = ProcessInfo.processInfo.environment["GITHUB_API_URL"]
let service: ProfileService
if let api {
    guard let url = URL(string: api), url.scheme == "http" || url.scheme == "https" else {
        say("error: GITHUB_API_URL is '\(api)', which is not an http or https URL")
        exit(2)
    }
    service = ProfileService(baseURL: url)
} else {
    service = ProfileService()
}
while let command = readLine() {
    guard !command.isEmpty else { continue }
    say(await ProfileCommand.answer(command, with: service))
}
