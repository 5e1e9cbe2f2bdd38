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
let environment = CommandEnvironment(
    workingDirectory: FileManager.default.currentDirectoryPath,
    variables: ProcessInfo.processInfo.environment,
    outputIsTerminal: isatty(STDOUT_FILENO) == 1)
let output = ModelLintApp.run(Array(CommandLine.arguments.dropFirst()), environment: environment)
FileHandle.standardOutput.write(Data(output.standardOutput.utf8))
FileHandle.standardError.write(Data(output.standardError.utf8))
exit(output.exitCode)
