/// The handler in front of a server's own, replay or recording: a request under ``ControlAPI/prefix`` is the
/// control API's, answered here and never matched, recorded, faulted or put in the journal; every other request
/// goes on unchanged.
final class ControlHandler: HTTPHandler {
    let api: ControlAPI
    let inner: any HTTPHandler

    init(api: ControlAPI, inner: any HTTPHandler) {
        self.api = api
        self.inner = inner
    }

    func admission(for connection: HTTPConnectionInfo) -> HTTPAdmission {
        inner.admission(for: connection)
    }

    func reply(to request: HTTPRequest, context: HTTPRequestContext) -> HTTPReply {
        guard ControlAPI.isControlRequest(request) else { return inner.reply(to: request, context: context) }
        return api.reply(to: request, context: context)
    }
}
