import Foundation
@testable import MockServer

/// Shared fixtures for the cassette, matching, replay and journal tests.
enum CassetteFixtures {
    /// A canonical cassette file, exactly as `Cassette.encoded()` writes it (and as JSONEncoder would).
    static let githubUsers = #"""
        {
          "errorTemplates" : {
            "rate_limit" : {
              "body" : {
                "json" : {
                  "message" : "API rate limit exceeded"
                }
              },
              "headers" : [
                [
                  "Content-Type",
                  "application/json"
                ]
              ],
              "status" : 403
            }
          },
          "format" : "servicereplay-cassette",
          "interactions" : [
            {
              "durationMs" : 87,
              "recordedAt" : "2026-11-21T10:00:00Z",
              "request" : {
                "headers" : [
                  [
                    "Accept",
                    "application/vnd.github+json"
                  ]
                ],
                "method" : "GET",
                "target" : "/users?since=0&per_page=2"
              },
              "response" : {
                "body" : {
                  "json" : [
                    {
                      "avatar_url" : "https://avatars.githubusercontent.com/u/1?v=4",
                      "id" : 1,
                      "login" : "mojombo",
                      "score" : 1.50
                    }
                  ]
                },
                "headers" : [
                  [
                    "Content-Type",
                    "application/json; charset=utf-8"
                  ],
                  [
                    "Link",
                    "<https://api.github.com/users?since=46&per_page=2>; rel=\"next\""
                  ],
                  [
                    "Set-Cookie",
                    "a=1"
                  ],
                  [
                    "Set-Cookie",
                    "b=2"
                  ]
                ],
                "status" : 200
              }
            },
            {
              "recordedAt" : "2026-11-21T10:00:01.250Z",
              "request" : {
                "body" : {
                  "text" : "username=ann&password=<redacted>"
                },
                "headers" : [
                  [
                    "Content-Type",
                    "application/x-www-form-urlencoded"
                  ]
                ],
                "method" : "POST",
                "target" : "/login"
              },
              "response" : {
                "body" : {
                  "base64" : "/9j/4AAQ"
                },
                "headers" : [
                  [
                    "Content-Type",
                    "image/jpeg"
                  ]
                ],
                "status" : 201
              }
            },
            {
              "failure" : {
                "kind" : "reset",
                "message" : "The network connection was lost."
              },
              "request" : {
                "method" : "GET",
                "target" : "/users/broken"
              }
            }
          ],
          "matching" : {
            "afterLast" : "cycle",
            "headers" : [
              "Accept"
            ],
            "ignoreBodyFields" : [
              "timestamp"
            ],
            "ignoreQuery" : [
              "_"
            ]
          },
          "name" : "github-users",
          "note" : "Recorded from https://api.github.com",
          "origin" : "recorded",
          "recordedAt" : "2026-11-21T10:00:00Z",
          "upstream" : "https://api.github.com",
          "version" : 3
        }
        """#

    /// A fresh, empty temporary folder; the caller removes it.
    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("mockserver-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A minimal valid cassette document with `interactions` spliced in, for error-message tables.
    static func document(interactions: String = "[]", extra: String = "") -> String {
        #"{"format": "servicereplay-cassette", "version": 1, "name": "t", \#(extra)"interactions": \#(interactions)}"#
    }

    /// A minimal interaction with `request` and `response` objects spliced in.
    static func interaction(
        request: String = #"{"method": "GET", "target": "/a"}"#,
        response: String = #""response": {"status": 200}"#,
        extra: String = ""
    ) -> String {
        #"{"request": \#(request), \#(response)\#(extra)}"#
    }
}
