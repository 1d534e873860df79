/// Facts about one accepted client connection.
package struct HTTPConnectionInfo: Sendable, Hashable {
    /// A number unique among this server's connections, starting at 1 in accept order.
    let id: UInt64
    /// The client's numeric IP address (`127.0.0.1`, `::1`).
    let remoteAddress: String
    /// The client's TCP port.
    let remotePort: Int

    /// Creates connection facts (the server does this).
    init(id: UInt64, remoteAddress: String, remotePort: Int) {
        self.id = id
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
    }
}
