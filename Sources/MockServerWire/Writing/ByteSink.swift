import Foundation

/// Somewhere response bytes are appended: the connection's output queue, or a `Data` for
/// ``HTTPResponse/serialized``.
protocol ByteSink: ~Copyable {
    mutating func append(_ bytes: UnsafeRawBufferPointer)
    /// Appends a body; a sink may keep a large `Data` by reference instead of copying it.
    mutating func append(body: Data)
}

extension ByteSink where Self: ~Copyable {
    mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Appends a decimal number.
    mutating func append(decimal value: Int) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var number = value.magnitude
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(number % 10)
                number /= 10
            } while number > 0 && index > 1
            if value < 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "-")
            }
            append(UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    /// Appends a header name or value, dropping CR, LF and NUL so that a handler's string can never
    /// split the response into extra lines.
    mutating func append(fieldText text: String) {
        var text = text
        text.withUTF8 { utf8 in
            let raw = UnsafeRawBufferPointer(utf8)
            if !raw.contains(where: { $0 == ASCII.cr || $0 == ASCII.lf || $0 == 0 }) {
                append(raw)
                return
            }
            for byte in raw where byte != ASCII.cr && byte != ASCII.lf && byte != 0 {
                withUnsafeBytes(of: byte) { append($0) }
            }
        }
    }
}

/// A ``ByteSink`` that collects into `Data`.
struct DataSink: ByteSink {
    var data = Data()

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        data.append(contentsOf: bytes)
    }

    mutating func append(body: Data) {
        data.append(body)
    }
}
