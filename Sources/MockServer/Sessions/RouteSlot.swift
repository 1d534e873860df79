/// A route slot as a type: ``FirstSlot`` is slot 0 and `NextSlot<S>` the slot after `S`.
protocol RouteSlot {
    static var index: Int { get }
}

/// Slot 0.
enum FirstSlot: RouteSlot {
    static var index: Int { 0 }
}

/// The slot after `Previous`.
enum NextSlot<Previous: RouteSlot>: RouteSlot {
    static var index: Int { Previous.index + 1 }
}
