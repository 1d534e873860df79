extension RawResponse {
    /// The default service-level error detection, recognising the common shapes:
    /// - status 429: `.rateLimited`, with ``retryAfter``;
    /// - status 304: `.notModified` (the answer to `If-None-Match`);
    /// - status 412: `.preconditionFailed` (the answer to `If-Match`, or to `If-None-Match: *`);
    /// - any other non-2xx status: `.httpStatus(status, message: serverMessage)`;
    /// - a 2xx whose body is an error payload (see ``errorPayload``).
    /// `nil` means nothing here looks like an error.
    public var commonServiceError: WebServiceError.Service? {
        switch statusCode {
        case 429: return .rateLimited(retryAfter: retryAfter)
        case 304: return .notModified
        case 412: return .preconditionFailed
        default: break
        }
        if !isSuccess {
            return .httpStatus(statusCode, message: serverMessage)
        }
        return errorPayload
    }

    /// The server's human-readable explanation, from the first of `message`, `error_message`,
    /// `error_description`, `error.message`, or `error` when it is a string.
    public var serverMessage: String? {
        guard let json else { return nil }
        return json["message"].string ?? json["error_message"].string ?? json["error_description"].string
            ?? json["error"]["message"].string ?? Self.text(json["error"])
    }

    /// An error payload in the body, whatever the status:
    /// - `{"error_id", "error_name", "error_message"}`: code from `error_name` (else `error_id`), message from
    ///   `error_message`;
    /// - `{"error": {"code"|"type", "message"}}`: code and message from the object;
    /// - `{"error": "text", "message": "..."}`: code `text`, message from `message`;
    /// - `{"error": "text"}`: message `text`;
    /// - `{"error": true, ...}`: message from `message`.
    /// `{"error": false}` and `{"message": ...}` alone are not errors (plenty of APIs send a message with
    /// results, such as "No feeds found.").
    public var errorPayload: WebServiceError.Service? {
        json?.errorPayload
    }

    private static func text(_ json: JSON) -> String? {
        if case .string(let text)? = json.scalar {
            return text
        }
        return nil
    }
}

extension JSON {
    /// An error payload at this position, in the shapes ``RawResponse/errorPayload`` lists; shared by whole
    /// responses and stream events.
    var errorPayload: WebServiceError.Service? {
        if self["error_id"].exists || self["error_name"].exists {
            return .errorPayload(
                code: self["error_name"].string ?? self["error_id"].string,
                message: self["error_message"].string)
        }
        let error = self["error"]
        if error.isObject {
            return .errorPayload(code: error["code"].string ?? error["type"].string, message: error["message"].string)
        }
        // Only a scalar is read from here on: building a container's value would cost for nothing.
        switch error.scalar {
        case .string(let text)?:
            let message = self["message"].string
            return message == nil ? .errorPayload(code: nil, message: text) : .errorPayload(code: text, message: message)
        case .bool(true)?:
            return .errorPayload(code: nil, message: self["message"].string)
        default:
            return nil
        }
    }
}
