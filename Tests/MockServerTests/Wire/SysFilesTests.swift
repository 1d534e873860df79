import Foundation
import MockServerWire
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file glue the cassette and capture-log writers share.
@Suite struct SysFilesTests {
    @Test func writeAll_writesEveryByte_andReportsAFailedWriteInsteadOfRetryingIt() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sys-files-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let bytes = Array(repeating: UInt8(ascii: "x"), count: 300_000)

        let writable = Sys.openFile(file.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        try #require(writable >= 0)
        #expect(bytes.withUnsafeBytes { Sys.writeAll(writable, $0) } == 0)
        close(writable)
        #expect(try Data(contentsOf: file) == Data(bytes))

        // A descriptor open for reading refuses writes (EBADF): said once, not retried.
        let readOnly = Sys.openFile(file.path, O_RDONLY, 0)
        try #require(readOnly >= 0)
        defer { close(readOnly) }
        #expect(bytes.withUnsafeBytes { Sys.writeAll(readOnly, $0) } == EBADF)
        #expect(Sys.openFile(file.path + "-missing", O_RDONLY, 0) == -1)
    }
}
