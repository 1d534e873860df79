import Foundation

extension WebServiceClient {
    /// Sends `service` and calls `completion` exactly once, on an arbitrary thread, with the typed response
    /// or a ``WebServiceError``. Returns a handle whose ``RequestHandle/cancel()`` cancels the request in
    /// flight; the completion then receives `.network(.cancelled)`.
    @discardableResult
    public func send<Service: WebService>(
        _ service: Service, uploadProgress: UploadProgressHandler? = nil,
        completion: @escaping @Sendable (Result<Service.Response, WebServiceError>) -> Void
    ) -> RequestHandle {
        let task = Task {
            do throws(WebServiceError) {
                completion(.success(try await send(service, uploadProgress: uploadProgress)))
            } catch {
                completion(.failure(error))
            }
        }
        return RequestHandle(task: task)
    }
}
