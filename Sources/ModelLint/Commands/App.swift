import Foundation
import ModelLintSupport
import ModelLintGather

/// What a command produced: bytes for each stream and the exit code (cli.md "Exit codes").
package struct CommandOutput: Equatable, Sendable {
    package var exitCode: Int32
    package var standardOutput: String
    package var standardError: String

    package init(exitCode: Int32, standardOutput: String = "", standardError: String = "") {
        self.exitCode = exitCode
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    package static let success: Int32 = 0
    package static let findings: Int32 = 1
    package static let usage: Int32 = 2
    package static let internalError: Int32 = 3

    /// A usage or input error, as every command reports one: exit 2 and `modellint: message` on stderr.
    package static func usageError(_ message: String) -> CommandOutput {
        CommandOutput(exitCode: usage, standardError: "modellint: \(message)\n")
    }
}

/// Where a command writes: standard output and standard error, as sinks.
package struct CommandStreams {
    package var standardOutput: OutputSink
    package var standardError: OutputSink

    package init(standardOutput: OutputSink, standardError: OutputSink) {
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
}

/// Where a command runs: everything the process would otherwise read from globals, so tests can set it.
package struct CommandEnvironment: Sendable {
    package var workingDirectory: String
    package var variables: [String: String]
    /// Whether standard output is a terminal (colour only then).
    package var outputIsTerminal: Bool
    /// The commit a released binary was built from (`Scripts/release` writes it into the executable's source);
    /// nil for any other build, which has no way to learn its commit.
    package var releaseCommit: String?

    package init(
        workingDirectory: String, variables: [String: String] = [:], outputIsTerminal: Bool = false,
        releaseCommit: String? = nil
    ) {
        self.workingDirectory = workingDirectory
        self.variables = variables
        self.outputIsTerminal = outputIsTerminal
        self.releaseCommit = releaseCommit
    }
}

/// One subcommand: its name, its line in the usage text, and how it runs. `ModelLintApp.commands` lists every
/// one, and that list alone drives dispatch, usage and suggestions.
package struct Subcommand: Sendable {
    package var name: String
    /// Its arguments, as the usage text shows them after `modellint NAME`.
    package var synopsis: String
    package var summary: String
    package var run: @Sendable (_ arguments: [String], CommandEnvironment, CommandStreams) -> Int32

    /// A command that writes its report as it goes.
    static func streaming(
        _ name: String, _ synopsis: String, _ summary: String,
        _ run: @escaping @Sendable ([String], CommandEnvironment, CommandStreams) -> Int32
    ) -> Subcommand {
        Subcommand(name: name, synopsis: synopsis, summary: summary, run: run)
    }

    /// A command whose whole output is made first.
    static func buffered(
        _ name: String, _ synopsis: String, _ summary: String,
        _ make: @escaping @Sendable ([String], CommandEnvironment) -> CommandOutput
    ) -> Subcommand {
        Subcommand(name: name, synopsis: synopsis, summary: summary) { arguments, environment, streams in
            let output = make(arguments, environment)
            streams.standardOutput.write(output.standardOutput)
            streams.standardError.write(output.standardError)
            return output.exitCode
        }
    }
}

/// The `modellint` command line: dispatch to the subcommands.
package enum ModelLintApp {
    /// Every command, in the order `usage` lists them.
    package static let commands: [Subcommand] = [
        .streaming("check", "[PATH ...] [options]", "lint bundles (the main job)", CheckCommand.run),
        .buffered("diff", "BUNDLE [FROM [TO]]", "show the classified changes between two versions", DiffCommand.run),
        .buffered("init", "[PATH ...]", "write a starter .modellint.json from what the bundles show", InitCommand.run),
        .buffered("lock", "[PATH ...]", "record shipped versions in modellint.lock", LockCommand.run),
        .buffered(
            "fix", "[PATH ...] [--dry-run]", "apply the mechanical repairs of check's findings", FixCommand.run),
        .buffered(
            "new-version", "BUNDLE [--name N]", "add a model version the safe way (copy current, repoint)",
            NewVersionCommand.run),
        .buffered(
            "hashes", "BUNDLE [VERSION]", "Core Data's entity version hashes and model checksum of each version",
            HashesCommand.run),
        .buffered(
            "export-schema", "PATH [--output DIR]", "write SwiftData schemas as .xcdatamodeld bundles",
            ExportSchemaCommand.run),
        .streaming(
            "verify-build", "MOMD [BUNDLE]", "check a compiled .momd (and the .cdm beside it) against the bundle",
            VerifyBuildCommand.run),
        .streaming(
            "store", "STORE [BUNDLE]", "which version wrote a SQLite store, and what migrating it does",
            StoreCommand.run),
        .buffered("rules", "", "list every rule: id, default severity, summary") { arguments, _ in
            RulesCommand.run(arguments)
        },
        .buffered("explain", "RULE-ID", "a rule's rationale, the safe alternative, and examples") { arguments, _ in
            ExplainCommand.run(arguments)
        },
    ]

    package static let usage: String = {
        let labels = commands.map { "modellint " + $0.name + ($0.synopsis.isEmpty ? "" : " " + $0.synopsis) }
        // The summaries line up after the usual label; a longer one is followed by one space.
        let lines = zip(labels, commands).map { label, command in
            "  " + label + String(repeating: " ", count: max(1, 39 - label.count)) + command.summary
        }
        return """
            modellint — lint Core Data model bundles (.xcdatamodeld) before a model change ships

            USAGE:
            \(lines.joined(separator: "\n"))
              modellint --version | --help | COMMAND --help

            PATH is a .xcdatamodeld bundle, a directory (searched recursively), or any file inside a bundle.
            Exit codes: 0 no errors, 1 errors found (or warnings with --strict), 2 usage or configuration error, 3 internal error.

            """
    }()

    /// Every command's name: what an unknown command is compared with for a suggestion.
    package static var commandNames: [String] { commands.map(\.name) }

    /// Runs a command with its output in memory (tests, library users).
    package static func run(_ arguments: [String], environment: CommandEnvironment) -> CommandOutput {
        let streams = CommandStreams(
            standardOutput: OutputSink(logSafe: true), standardError: OutputSink(logSafe: true))
        let code = run(arguments, environment: environment, streams: streams)
        streams.standardOutput.flush()
        streams.standardError.flush()
        return CommandOutput(
            exitCode: code, standardOutput: streams.standardOutput.string, standardError: streams.standardError.string)
    }

    /// Runs a command writing to `streams` as it goes; returns the exit code.
    package static func run(_ arguments: [String], environment: CommandEnvironment, streams: CommandStreams) -> Int32 {
        let rest = Array(arguments.dropFirst())
        switch arguments.first {
        case nil:
            streams.standardError.write(usage)
            return CommandOutput.usage
        case "--version", "-V", "version":
            // The bare version is what reports and lock files name; the commit is for the person asking.
            let commit = environment.releaseCommit.map { " (\($0))" } ?? ""
            streams.standardOutput.write("modellint \(ModelLintVersion.current)\(commit)\n")
            return CommandOutput.success
        case "--help", "-h", "help":
            // `help check` is `check --help`.
            if let name = rest.first, let command = commands.first(where: { $0.name == name }) {
                return command.run(["--help"], environment, streams)
            }
            streams.standardOutput.write(usage)
            return CommandOutput.success
        case let name?:
            if let command = commands.first(where: { $0.name == name }) {
                return command.run(rest, environment, streams)
            }
            var message = "modellint: unknown command '\(name)'"
            if let suggestion = Spelling.closest(to: name, in: commandNames) {
                message += " (did you mean '\(suggestion)'?)"
            }
            streams.standardError.write(message + "\n\n" + usage)
            return CommandOutput.usage
        }
    }

    /// The exit code once the output is written: a report that could not be written (disk full, stdout closed)
    /// is an internal error (exit 3) said on standard error; a reader that went away (a closed pipe, as in
    /// `modellint check | head -1`) ends the run quietly with its own code.
    package static func exitCode(_ code: Int32, afterWriting streams: CommandStreams) -> Int32 {
        guard let error = streams.standardOutput.error else { return code }
        if let failure = error as? POSIXFailure, failure.isBrokenPipe { return code }
        streams.standardError.write("modellint: cannot write the report: \(error)\n")
        streams.standardError.flush()
        return CommandOutput.internalError
    }
}
