@testable import ServiceKit
import Testing

@Test func versionIsSemantic() {
    #expect(ServiceKit.version.split(separator: ".").count == 3)
}
