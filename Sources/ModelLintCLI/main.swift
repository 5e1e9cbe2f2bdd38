import Foundation
import ModelLintCommands
import ModelLintSupport
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Thin: turn the process into a CommandEnvironment and two streams, run, exit.
// A closed pipe (`modellint check | head -1`) is an EPIPE error, not a signal that kills mid-report.
signal(SIGPIPE, SIG_IGN)
// A closed standard descriptor would be reused by the next file opened, and the report written into it:
// hold each closed one with /dev/null opened read-only, so writing to it fails (EBADF) and is reported.
for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 {
    let held = open("/dev/null", O_RDONLY)
    if held >= 0 && held != fd {
        dup2(held, fd)
        close(held)
    }
}
// Build-tool plugins cannot choose the process's directory; they name the package's instead.
let variables = ProcessEnvironment.all()
let environment = CommandEnvironment(
    workingDirectory: variables["MODELLINT_WORKING_DIRECTORY"] ?? FileManager.default.currentDirectoryPath,
    variables: variables,
    outputIsTerminal: isatty(STDOUT_FILENO) == 1)
// It ends with `_exit`: what a run built is left to the process's end, not freed piece by piece.
Teardown.endsWithoutFreeing()
let streams = CommandStreams(
    standardOutput: OutputSink(logSafe: true) { try FileWriter.writeAll($0, to: STDOUT_FILENO) },
    standardError: OutputSink(threshold: 1, logSafe: true) { try FileWriter.writeAll($0, to: STDERR_FILENO) })
var code = ModelLintApp.run(Array(CommandLine.arguments.dropFirst()), environment: environment, streams: streams)
streams.standardOutput.flush()
code = ModelLintApp.exitCode(code, afterWriting: streams)
// Everything is written: leave without the exit handlers, whose tearing down of what a large run built nobody waits for.
_exit(code)
