/// What the server does with a connection it has just accepted, before reading anything.
package enum HTTPAdmission: Sendable, Hashable {
    /// Serve the connection.
    case accept
    /// Close it at once (FIN) without reading: a refused connection.
    case close
    /// Reset it at once (RST) without reading.
    case reset
}
