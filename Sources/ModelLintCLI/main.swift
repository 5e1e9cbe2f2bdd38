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
// Interrupted (SIGINT, SIGTERM): the files being written are removed, and the exit is 130 or 143. After the
// descriptors above are held: the dispatch source opens descriptors of its own, which must not take a closed one's number.
Interruption.handleSignals()
#if canImport(Glibc)
    // A run is short and ends with `_exit`: memory freed during it is kept for reuse rather than handed back. glibc
    // otherwise maps each block over 128 KB afresh (a file's bytes, a mapping model's decoded archive) and trims the
    // heap, so the next allocation faults its pages in again; on a virtual machine a fault costs microseconds.
    // `mallopt` is in <malloc.h>, which the Glibc module does not bring in: found by name.
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        let (trimThreshold, mmapThreshold): (Int32, Int32) = (-1, -3)  // M_TRIM_THRESHOLD, M_MMAP_THRESHOLD
        _ = mallopt(mmapThreshold, 64 << 20)
        _ = mallopt(trimThreshold, Int32.max)
    }
#endif
// Build-tool plugins cannot choose the process's directory; they name the package's instead.
let variables = ProcessEnvironment.all()
let environment = CommandEnvironment(
    workingDirectory: variables["MODELLINT_WORKING_DIRECTORY"] ?? FileManager.default.currentDirectoryPath,
    variables: variables,
    outputIsTerminal: isatty(STDOUT_FILENO) == 1, releaseCommit: releaseCommit)
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
