// Apple platforms only, and only checked by reading: there is no Mac where this package is built.
#if canImport(ObjectiveC) && !canImport(FoundationNetworking)
import Foundation
import ObjectiveC
import ServiceReplayShared

/// On Apple platforms `URLProtocol.registerClass` reaches `URLSession.shared` only: a session made from a
/// configuration consults that configuration's `protocolClasses`. So, as OHHTTPStubs does, the class getters
/// `URLSessionConfiguration.default` and `.ephemeral` are replaced, through the Objective-C runtime, by ones
/// that return the original configuration with the routing protocol first (``ProcessRouting/route(_:)``).
/// Done once, when routing is first activated, and never in a process that did not activate it.
enum DefaultConfigurations {
    /// The original getter's type: a class method taking no argument.
    private typealias Getter = @convention(c) (AnyClass, Selector) -> URLSessionConfiguration

    /// Replaces both getters.
    static func routeEveryCopy() {
        route(#selector(getter: URLSessionConfiguration.default))
        route(#selector(getter: URLSessionConfiguration.ephemeral))
    }

    /// Replaces the class getter `selector` of `URLSessionConfiguration` by one calling the original and
    /// routing what it returns.
    private static func route(_ selector: Selector) {
        guard let method = class_getClassMethod(URLSessionConfiguration.self, selector) else { return }
        let original = unsafeBitCast(method_getImplementation(method), to: Getter.self)
        let replacement: @convention(block) (AnyClass) -> URLSessionConfiguration = { type in
            let configuration = original(type, selector)
            ProcessRouting.route(configuration)
            return configuration
        }
        method_setImplementation(method, imp_implementationWithBlock(replacement))
    }
}
#endif
