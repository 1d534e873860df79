import Foundation
@testable import MockServer

extension RedactionRules {
    /// What `recorder lint` would say of `request` as recorded (`location: reason`), one line per value that
    /// redaction would replace.
    func findings(_ request: HTTPRequest) -> [String] {
        var pass = RedactionPass(self)
        var recorded = RecordedRequest(request)
        pass.redact(&recorded)
        return pass.findings.map(\.description)
    }

    /// What `recorder lint` would say of `response` as recorded (see ``findings(_:)-(HTTPRequest)``).
    func findings(_ response: HTTPResponse) -> [String] {
        var pass = RedactionPass(self)
        var recorded = RecordedResponse(response)
        pass.redact(&recorded)
        return pass.findings.map(\.description)
    }
}
