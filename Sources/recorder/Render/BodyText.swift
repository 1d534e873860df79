import Foundation
import MockServer

/// A body as `recorder show` prints it: JSON pretty-printed, text as is, anything else as its size and a
/// hex dump of its first bytes.
enum BodyText {
    /// How many bytes of a binary body the dump shows.
    static let dumpLimit = 64

    static func render(_ body: RecordedBody, contentType: String?) -> String? {
        switch body.form {
        case .empty:
            return nil
        case .json(let value, _):
            return String(decoding: value.serialized(pretty: true), as: UTF8.self)
        case .text(let text):
            return text
        case .binary(let data):
            let type = contentType.map { " (\($0))" } ?? ""
            let shown = data.count > dumpLimit ? ", the first \(dumpLimit)" : ""
            return (["\(counted(data.count, "byte")) of binary data\(type)\(shown):"] + hexDump(data.prefix(dumpLimit))).joined(separator: "\n")
        case .stream(let stream):
            // One line per part, with its offset, so the timing shows; then how it ended, unless properly.
            var lines = stream.parts.map { part in
                "+\(part.offsetMs) ms  "
                    + String(decoding: part.content.data, as: UTF8.self).trimmingCharacters(in: .newlines)
                    .replacingOccurrences(of: "\n", with: "\n          ")
            }
            switch stream.ending {
            case .complete: break
            case .broken: lines.append("(the upstream broke the stream here)")
            case .unfinished: lines.append("(the recording stopped here, with the stream still open)")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// `00000000  2d 2d 42 6f 75 6e 64 61  72 79 2d 53 65 72 76 69  |--Boundary-Servi|`, 16 bytes a line.
    static func hexDump(_ data: Data) -> [String] {
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count, by: 16).map { offset in
            let chunk = bytes[offset..<min(offset + 16, bytes.count)]
            var hex = ""
            for position in 0..<16 {
                if position == 8 { hex += " " }
                hex += position < chunk.count ? hexByte(chunk[offset + position]) + " " : "   "
            }
            let printable = String(chunk.map { (0x20..<0x7F).contains($0) ? Character(Unicode.Scalar($0)) : "." })
            return "  " + hexOffset(offset) + "  " + hex + " |" + printable + "|"
        }
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }

    private static func hexOffset(_ offset: Int) -> String {
        let digits = String(offset, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
