// The wire layer is a module of its own so that the compiler keeps it from naming anything above it; its
// public types (`HTTPRequest`, `HTTPHeaders`, `MockServerError`) are part of MockServer's API, so importing
// MockServer imports them as before.
@_exported import MockServerWire
