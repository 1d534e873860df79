import ServiceReplayShared

/// A command's arguments after parsing: positionals, valued options (each possibly repeated) and flags.
///
/// Options are spelled `--name VALUE` or `--name=VALUE`; flags `--name`. `--` ends options; `-` and negative
/// numbers are positionals. Every read that can fail throws a usage ``RecorderError`` naming the option.
struct Arguments {
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []

    /// Parses `arguments` for a command that takes the valued options `options` and the flags `flags`
    /// (names without the leading `--`).
    init(_ arguments: [String], options: Set<String>, flags allowedFlags: Set<String>, command: String) throws(RecorderError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            // A lone `-` and negative numbers (`show FILE -1`) are values, so that their errors can name them.
            guard !optionsEnded, argument.hasPrefix("-"), argument != "-", Int(argument) == nil else {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            guard argument.hasPrefix("--") else {
                throw .usage("\(command) does not take the option '\(argument)'; run `recorder \(command) --help` for its options")
            }
            let body = argument.dropFirst(2)
            let name: String
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            if allowedFlags.contains(name) {
                guard inlineValue == nil else { throw .usage("--\(name) takes no value") }
                flags.insert(name)
            } else if options.contains(name) {
                if let inlineValue {
                    values[name, default: []].append(inlineValue)
                } else {
                    guard index < arguments.count else { throw .usage("--\(name) needs a value") }
                    values[name, default: []].append(arguments[index])
                    index += 1
                }
            } else {
                let hint = NearestName.nearest(to: name, among: options.union(allowedFlags).sorted()).map { "did you mean '--\($0)'? " } ?? ""
                throw .usage("\(command) does not take the option '--\(name)'; \(hint)run `recorder \(command) --help` for its options")
            }
        }
    }

    /// Whether the flag `--name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Every value given to `--name`, in order.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The value of `--name` when given once; throws when given more than once.
    func single(_ name: String) throws(RecorderError) -> String? {
        let given = all(name)
        guard given.count <= 1 else { throw .usage("--\(name) is given \(given.count) times; give it once") }
        return given.first
    }

    /// The value of `--name`, which must be given.
    func required(_ name: String) throws(RecorderError) -> String {
        guard let value = try single(name) else { throw .usage("--\(name) is required") }
        return value
    }

    /// The value of `--name` as a whole number in `range`, or `nil` when not given.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(RecorderError) -> Int? {
        guard let text = try single(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .usage("--\(name) '\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// Throws unless the number of positionals is within `range`, naming what is expected.
    func expectPositionals(_ range: ClosedRange<Int>, what: String, command: String) throws(RecorderError) {
        if positionals.count < range.lowerBound {
            throw .usage("\(command) needs \(what); run `recorder \(command) --help`")
        }
        if positionals.count > range.upperBound {
            throw .usage("\(command) takes \(what), but '\(positionals[range.upperBound])' is one too many")
        }
    }
}
