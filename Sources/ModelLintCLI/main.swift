import Foundation
import ModelLint
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Thin: turn the process into a CommandEnvironment, run, write the bytes, exit.
// Build-tool plugins cannot choose the process's directory; they name the package's instead.
let environment = CommandEnvironment(
    workingDirectory: ProcessInfo.processInfo.environment["MODELLINT_WORKING_DIRECTORY"] ?? FileManager.default.currentDirectoryPath,
    variables: ProcessInfo.processInfo.environment,
    outputIsTerminal: isatty(STDOUT_FILENO) == 1)
let output = ModelLintApp.run(Array(CommandLine.arguments.dropFirst()), environment: environment)
FileHandle.standardOutput.write(Data(output.standardOutput.utf8))
FileHandle.standardError.write(Data(output.standardError.utf8))
// Everything is written (FileHandle writes straight to the descriptors): leave without the exit handlers,
// which spent 5 ms tearing down what a 117-version run had built.
_exit(output.exitCode)
