import ModelLintSupport
import ModelLintModel
import ModelLintRules
import ModelLintGather

/// A small, table-driven parser: each command lists its options once, and the same table drives
/// parsing, error messages and `--help`.
package struct OptionSpec: Sendable {
    package var name: String
    /// The value's placeholder (`FILE`, `F`), or nil for a flag.
    package var valueName: String?
    /// Allowed values, when the set is closed.
    package var choices: [String]?
    /// The value of the option given alone (`--color` = `--color always`): then the next argument is its value only
    /// when it is one of `choices`.
    package var impliedValue: String?
    package var help: String

    package init(
        _ name: String, value: String? = nil, choices: [String]? = nil, impliedValue: String? = nil, help: String
    ) {
        self.name = name
        self.valueName = value
        self.choices = choices
        self.impliedValue = impliedValue
        self.help = help
    }
}

package struct ParsedArguments: Equatable, Sendable {
    package var positionals: [String] = []
    package var values: [String: String] = [:]
    /// Every value of an option given more than once, in order (`--only a --only b`).
    package var repeated: [String: [String]] = [:]
    package var flags: Set<String> = []

    package init(
        positionals: [String] = [], values: [String: String] = [:], repeated: [String: [String]] = [:],
        flags: Set<String> = []
    ) {
        self.positionals = positionals
        self.values = values
        self.repeated = repeated
        self.flags = flags
    }
}

package struct UsageError: Error, Equatable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

package enum ArgumentParser {
    /// `--name value`, `--name=value`, flags, and `--` to end options. Repeating a valued option keeps the last.
    package static func parse(_ arguments: [String], options: [OptionSpec], command: String) throws -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            // `-h` is `--help` for every command, as users of any CLI expect.
            var name = argument == "-h" && options.contains(where: { $0.name == "--help" }) ? "--help" : argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                var message = "unknown option \(name) for '\(command)'"
                if let suggestion = Spelling.closest(to: name, in: options.map(\.name)) {
                    message += " (did you mean \(suggestion)?)"
                }
                throw UsageError(message + "; see 'modellint \(command) --help'")
            }
            guard let valueName = spec.valueName else {
                if inlineValue != nil { throw UsageError("\(name) takes no value") }
                result.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if let implied = spec.impliedValue,
                !(index < arguments.count && spec.choices?.contains(arguments[index]) == true)
            {
                value = implied
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                value = arguments[index]
                index += 1
            } else {
                let expected = spec.choices.map { ": one of " + $0.joined(separator: ", ") } ?? ""
                throw UsageError("\(name) needs a value (\(valueName))\(expected)")
            }
            if let choices = spec.choices, !choices.contains(value) {
                throw UsageError("\(name) must be one of \(choices.joined(separator: ", ")), not '\(value)'")
            }
            result.values[name] = value
            result.repeated[name, default: []].append(value)
        }
        return result
    }

    package static func helpText(usage: String, summary: String, options: [OptionSpec]) -> String {
        var out = "USAGE: \(usage)\n\n\(summary)\n"
        guard !options.isEmpty else { return out }
        out += "\nOPTIONS:\n"
        let labels = options.map { spec in
            spec.valueName.map { spec.impliedValue == nil ? "\(spec.name) \($0)" : "\(spec.name) [\($0)]" } ?? spec.name
        }
        let width = (labels.map(\.count).max() ?? 0) + 2
        for (label, spec) in zip(labels, options) {
            out += "  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + spec.help + "\n"
        }
        return out
    }
}

/// A flag a command accepts, declared once: its spec drives parsing, errors and help, and a parse answers it
/// (`parsed[Self.strict]`), so no option is looked up by a string spelled twice.
package struct Flag: Sendable {
    package let spec: OptionSpec

    package init(_ name: String, help: String) { spec = OptionSpec(name, help: help) }
}

/// An option with a value, declared once, read as its type.
package struct ValueOption<Value: Sendable>: Sendable {
    package let spec: OptionSpec
    let read: @Sendable (String) -> Value?

    package init(_ name: String, value: String, help: String, read: @escaping @Sendable (String) -> Value?) {
        spec = OptionSpec(name, value: value, help: help)
        self.read = read
    }

    /// An option whose value is one of a closed set: parsing refuses any other. `implied`: its value when given
    /// alone.
    package init(_ name: String, value: String, implied: Value? = nil, help: String)
    where Value: CaseIterable & RawRepresentable<String> {
        spec = OptionSpec(
            name, value: value, choices: Value.allCases.map(\.rawValue), impliedValue: implied?.rawValue, help: help)
        read = { Value(rawValue: $0) }
    }
}

extension ValueOption where Value == String {
    package init(_ name: String, value: String, help: String) {
        self.init(name, value: value, help: help) { $0 }
    }
}

extension ParsedArguments {
    package subscript(_ flag: Flag) -> Bool { flags.contains(flag.spec.name) }
    /// The last value given (nil: not given).
    package subscript<Value>(_ option: ValueOption<Value>) -> Value? { values[option.spec.name].flatMap(option.read) }
    /// Every value given, in order (repeatable options).
    package func all<Value>(_ option: ValueOption<Value>) -> [Value] {
        (repeated[option.spec.name] ?? []).compactMap(option.read)
    }
}

/// `--help`, which every command accepts.
package let helpFlag = Flag("--help", help: "show this help")
