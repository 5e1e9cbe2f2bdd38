import Foundation
import ModelLintSupport

/// What a command produced: bytes for each stream and the exit code (cli.md "Exit codes").
public struct CommandOutput: Equatable, Sendable {
    public var exitCode: Int32
    public var standardOutput: String
    public var standardError: String

    public init(exitCode: Int32, standardOutput: String = "", standardError: String = "") {
        self.exitCode = exitCode
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    public static let success: Int32 = 0
    public static let findings: Int32 = 1
    public static let usage: Int32 = 2
    public static let internalError: Int32 = 3

    /// A usage or input error, as every command reports one: exit 2 and `modellint: message` on stderr.
    public static func usageError(_ message: String) -> CommandOutput {
        CommandOutput(exitCode: usage, standardError: "modellint: \(message)\n")
    }
}

/// Where a command writes: standard output and standard error, as sinks.
public struct CommandStreams {
    public var standardOutput: OutputSink
    public var standardError: OutputSink

    public init(standardOutput: OutputSink, standardError: OutputSink) {
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
}

/// Where a command runs: everything the process would otherwise read from globals, so tests can set it.
public struct CommandEnvironment: Sendable {
    public var workingDirectory: String
    public var variables: [String: String]
    /// Whether standard output is a terminal (colour only then).
    public var outputIsTerminal: Bool

    public init(workingDirectory: String, variables: [String: String] = [:], outputIsTerminal: Bool = false) {
        self.workingDirectory = workingDirectory
        self.variables = variables
        self.outputIsTerminal = outputIsTerminal
    }
}

/// The `modellint` command line: dispatch to the subcommands.
public enum ModelLintApp {
    public static let usage = """
        modellint — lint Core Data model bundles (.xcdatamodeld) before a model change ships

        USAGE:
          modellint check [PATH ...] [options]   lint bundles (the main job)
          modellint diff BUNDLE [FROM [TO]]      show the classified changes between two versions
          modellint init [PATH ...]              write a starter .modellint.json from what the bundles show
          modellint lock [PATH ...]              record shipped versions in modellint.lock
          modellint new-version BUNDLE [--name N] add a model version the safe way (copy current, repoint)
          modellint hashes BUNDLE [VERSION]      Core Data's entity version hashes and model checksum of each version
          modellint verify-build MOMD [BUNDLE]   check a compiled .momd (and the .cdm beside it) against the bundle
          modellint store STORE [BUNDLE]         which version wrote a SQLite store, and what migrating it does
          modellint rules                        list every rule: id, default severity, summary
          modellint explain RULE-ID              a rule's rationale, the safe alternative, and examples
          modellint --version | --help | COMMAND --help

        PATH is a .xcdatamodeld bundle, a directory (searched recursively), or any file inside a bundle.
        Exit codes: 0 no errors, 1 errors found (or warnings with --strict), 2 usage or configuration error, 3 internal error.

        """

    /// Every command, as `usage` lists them: what an unknown command is compared with for a suggestion.
    package static let commandNames = [
        "check", "diff", "init", "lock", "new-version", "hashes", "verify-build", "store", "rules", "explain",
    ]

    /// Runs a command with its output in memory (tests, library users).
    public static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandOutput {
        let streams = CommandStreams(
            standardOutput: OutputSink(logSafe: true), standardError: OutputSink(logSafe: true))
        let code = run(arguments, environment: environment, streams: streams)
        streams.standardOutput.flush()
        streams.standardError.flush()
        return CommandOutput(
            exitCode: code, standardOutput: streams.standardOutput.string, standardError: streams.standardError.string)
    }

    /// Runs a command writing to `streams` as it goes; returns the exit code.
    public static func run(_ arguments: [String], environment: CommandEnvironment, streams: CommandStreams) -> Int32 {
        if arguments.first == "check" {
            return CheckCommand.run(Array(arguments.dropFirst()), environment: environment, streams: streams)
        }
        if arguments.first == "store" {
            return StoreCommand.run(Array(arguments.dropFirst()), environment: environment, streams: streams)
        }
        if arguments.first == "verify-build" {
            return VerifyBuildCommand.run(Array(arguments.dropFirst()), environment: environment, streams: streams)
        }
        let output = result(arguments, environment: environment)
        streams.standardOutput.write(output.standardOutput)
        streams.standardError.write(output.standardError)
        return output.exitCode
    }

    /// The exit code once the output is written: a report that could not be written (disk full, stdout closed)
    /// is an internal error (exit 3) said on standard error; a reader that went away (a closed pipe, as in
    /// `modellint check | head -1`) ends the run quietly with its own code.
    public static func exitCode(_ code: Int32, afterWriting streams: CommandStreams) -> Int32 {
        guard let error = streams.standardOutput.error else { return code }
        if let failure = error as? POSIXFailure, failure.isBrokenPipe { return code }
        streams.standardError.write("modellint: cannot write the report: \(error)\n")
        streams.standardError.flush()
        return CommandOutput.internalError
    }

    private static func result(_ arguments: [String], environment: CommandEnvironment) -> CommandOutput {
        guard let command = arguments.first else {
            return CommandOutput(exitCode: CommandOutput.usage, standardError: usage)
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "--version", "-V", "version":
            return CommandOutput(exitCode: 0, standardOutput: "modellint \(ModelLintVersion.current)\n")
        case "--help", "-h", "help":
            return CommandOutput(exitCode: 0, standardOutput: usage)
        case "diff":
            return DiffCommand.run(rest, environment: environment)
        case "lock":
            return LockCommand.run(rest, environment: environment)
        case "init":
            return InitCommand.run(rest, environment: environment)
        case "hashes":
            return HashesCommand.run(rest, environment: environment)
        case "new-version":
            return NewVersionCommand.run(rest, environment: environment)
        case "rules":
            return RulesCommand.run(rest)
        case "explain":
            return ExplainCommand.run(rest)
        default:
            var message = "modellint: unknown command '\(command)'"
            if let suggestion = Spelling.closest(to: command, in: commandNames) {
                message += " (did you mean '\(suggestion)'?)"
            }
            return CommandOutput(exitCode: CommandOutput.usage, standardError: message + "\n\n" + usage)
        }
    }
}
