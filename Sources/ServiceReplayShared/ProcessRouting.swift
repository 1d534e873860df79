import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the modules below the app side (`MockServerAppRouting`) must know of it: the variable a test sets
/// in the app's launch environment, and the protocol class that routes every request of the app once it
/// is active. ServiceKit adds that class to the sessions it makes (on Linux no global hook reaches them),
/// the loopback sessions keep it out (they must not route their own requests again), and MockServer's
/// `CassetteServer.launchEnvironment` names the variable. One place, so the two ends cannot disagree.
package enum ProcessRouting {
    /// The launch-environment variable holding the test server's loopback base URL (`http://127.0.0.1:PORT`).
    package static let environmentVariable = "MOCKSERVER_APP_SERVER"

    /// The app side's protocol class, once it is active; `nil` in every process that never activated it.
    private static let routingClass = Lock<AnyClass?>(nil)

    /// The protocol class routing every request of this process, or `nil` when none was activated.
    package static var protocolClass: AnyClass? {
        routingClass.withLock { $0 }
    }

    /// Makes `protocolClass` the one ``route(_:)`` adds and ``exclude(from:)`` removes.
    package static func activate(_ protocolClass: AnyClass) {
        routingClass.withLock { $0 = protocolClass }
    }

    /// Puts the routing class first in `configuration`'s `protocolClasses`, once, when routing is active;
    /// otherwise leaves it alone. A background configuration (one with an identifier) is left alone too:
    /// Apple's URLSession ignores its `protocolClasses`.
    package static func route(_ configuration: URLSessionConfiguration) {
        guard let routing = protocolClass, configuration.identifier == nil else { return }
        let classes = configuration.protocolClasses ?? []
        guard !classes.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(routing) }) else { return }
        configuration.protocolClasses = [routing] + classes
    }

    /// Removes the routing class from `configuration`'s `protocolClasses`, when it is there.
    package static func exclude(from configuration: URLSessionConfiguration) {
        guard let routing = protocolClass, let classes = configuration.protocolClasses else { return }
        configuration.protocolClasses = classes.filter { ObjectIdentifier($0) != ObjectIdentifier(routing) }
    }
}
