import Foundation
import ServiceKit

/// Stack Exchange's error payload, `{"error_id": 502, "error_name": "throttle_violation", "error_message":
/// "too many requests from this IP, more requests available in 81732 seconds"}`, which the API sends under
/// 400-range statuses and sometimes inside a 200.
enum StackExchangeErrors {
    static func serviceError(in reply: RawResponse) -> WebServiceError.Service? {
        guard let json = reply.json, json["error_id"].exists || json["error_name"].exists else {
            return reply.commonServiceError
        }
        let name = json["error_name"].string
        let message = json["error_message"].string
        if name == "throttle_violation" || json["error_id"].int == 502 {
            return .rateLimited(retryAfter: message.flatMap(secondsAvailable(in:)))
        }
        return reply.isSuccess
            ? .errorPayload(code: name ?? json["error_id"].string, message: message)
            : .httpStatus(reply.statusCode, message: message)
    }

    /// The delay in "... more requests available in 81732 seconds".
    static func secondsAvailable(in message: String) -> TimeInterval? {
        guard let match = message.firstMatch(of: /available in (\d+) seconds?/) else { return nil }
        return TimeInterval(String(match.output.1))
    }
}
