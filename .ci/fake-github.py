#!/usr/bin/env python3
"""A stand-in for api.github.com on loopback, for recording the example's cassettes in CI.

Binds 127.0.0.1 on an ephemeral port, prints the port on one line once it accepts connections, and answers
GET /users/octocat with a profile and any other /users/LOGIN with GitHub's 404, until killed. With `--version 2`
it plays the same API after a change: the profile's public_repos is a string, for the drift mode's check.
"""
import http.server
import json
import sys

OCTOCAT = {"login": "octocat", "id": 583231, "name": "The Octocat", "public_repos": 8, "type": "User"}
if sys.argv[1:] == ["--version", "2"]:
    OCTOCAT["public_repos"] = "8"


class FakeGitHub(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        if self.path == "/users/octocat":
            self.answer(200, OCTOCAT)
        else:
            self.answer(404, {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"})

    def answer(self, status, document):
        body = json.dumps(document, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        sys.stderr.write("fake-github: " + (format % args) + "\n")


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeGitHub)
print(server.server_address[1], flush=True)
server.serve_forever()
