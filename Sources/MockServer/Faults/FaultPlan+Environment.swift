import Foundation

extension FaultPlan {
    /// The environment variable holding a plan file path or inline specs.
    public static let faultsVariable = "MOCKSERVER_FAULTS"
    /// The environment variable holding the seed (a whole number), which overrides a plan file's seed.
    public static let seedVariable = "MOCKSERVER_SEED"

    /// The plan the environment asks for, or `nil` when `MOCKSERVER_FAULTS` is unset or blank.
    ///
    /// `MOCKSERVER_FAULTS` holds either the path of a plan file (when it ends in `.json` or names an
    /// existing file) or inline specs separated by `;`. `MOCKSERVER_SEED`, when set, gives the seed and
    /// overrides a plan file's own. Throws ``MockServerError`` naming the variable and its bad part.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(MockServerError) -> FaultPlan? {
        var seed: UInt64?
        if let text = environment[seedVariable]?.trimmingWhitespace(), !text.isEmpty {
            guard let parsed = UInt64(text) else {
                throw MockServerError(.invalidFaultPlan, "\(seedVariable) '\(text)' is not a whole number from 0 to 2^64-1")
            }
            seed = parsed
        }
        guard let value = environment[faultsVariable]?.trimmingWhitespace(), !value.isEmpty else { return nil }
        var plan: FaultPlan
        do {
            if value.hasSuffix(".json") || FileManager.default.fileExists(atPath: value) {
                plan = try load(contentsOf: URL(fileURLWithPath: value))
            } else {
                plan = try parse(specs: value)
            }
        } catch {
            throw error.prefixed(faultsVariable)
        }
        if let seed { plan.seed = seed }
        return plan
    }
}
