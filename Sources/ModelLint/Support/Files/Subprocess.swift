import Foundation
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs a program directly (`posix_spawn`, never a shell) with its arguments as data, feeding it `input` and
/// reading both of its outputs at once (`poll`), so no pipe can fill and stall it. Not Foundation's `Process`:
/// on Linux its start-up costs more than the git commands it would run.
package enum Subprocess {
    package struct Result {
        package var status: Int32
        package var output: Data
        package var error: Data
        /// The output passed the limit asked for: the program was stopped, and `output` is incomplete.
        package var outputLimitReached = false

        package init(status: Int32, output: Data, error: Data) {
            self.status = status
            self.output = output
            self.error = error
        }
    }

    /// Nil when the program could not be started. Standard error is kept to its first 64 KB; standard output to
    /// `outputLimit` bytes, past which the program is killed (`outputLimitReached`). Logged in every open
    /// `InputLog`: a run's report depends on what its commands answered.
    package static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], input: Data? = nil,
        outputLimit: Int? = nil
    ) -> Result? {
        let result = spawn(executable, arguments, environment: environment, input: input, outputLimit: outputLimit)
        // A command given input, stopped at a limit or not started is not one a log can repeat to compare.
        InputLog.ran(
            executable: executable, arguments: arguments, status: result?.status ?? -1, output: result?.output,
            error: result?.error, repeatable: input == nil && result != nil && result?.outputLimitReached == false)
        return result
    }

    private static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String], input: Data?, outputLimit: Int?
    ) -> Result? {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        var errorsFromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { return nil }
        guard pipe(&fromChild) == 0 else {
            closeAll(toChild)
            return nil
        }
        guard pipe(&errorsFromChild) == 0 else {
            closeAll(toChild + fromChild)
            return nil
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorsFromChild[1], 2)
        for fd in toChild + fromChild + errorsFromChild { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        _ = close(toChild[0])
        _ = close(fromChild[1])
        _ = close(errorsFromChild[1])
        guard spawned == 0 else {
            closeAll([toChild[1], fromChild[0], errorsFromChild[0]])
            return nil
        }
        var output = Data()
        var errors = Data()
        var limitReached = false
        let pending = [UInt8](input ?? Data())
        var written = 0
        var inputFD: Int32 = toChild[1]
        if pending.isEmpty {
            _ = close(inputFD)
            inputFD = -1
        } else {
            _ = fcntl(inputFD, F_SETFL, O_NONBLOCK)
        }
        var open: [Int32] = [fromChild[0], errorsFromChild[0]]
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !open.isEmpty || inputFD >= 0 {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if inputFD >= 0 { fds.append(pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0)) }
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 else {
                if errno == EINTR { continue }
                break
            }
            for entry in fds where entry.revents != 0 {
                if entry.fd == inputFD {
                    let n = pending.withUnsafeBytes {
                        write(inputFD, $0.baseAddress! + written, pending.count - written)
                    }
                    if n > 0 { written += n }
                    // Done, or the program stopped reading (EPIPE): either way, no more input.
                    if written == pending.count || (n < 0 && errno != EAGAIN && errno != EINTR) {
                        _ = close(inputFD)
                        inputFD = -1
                    }
                    continue
                }
                let n = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress!, $0.count) }
                if n > 0 {
                    if entry.fd == fromChild[0] {
                        output.append(contentsOf: buffer[0..<n])
                        if let outputLimit, output.count > outputLimit, !limitReached {
                            limitReached = true
                            _ = kill(pid, SIGKILL)
                        }
                    } else if errors.count < 64 * 1024 {
                        errors.append(contentsOf: buffer[0..<n])
                    }
                } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                    _ = close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        if inputFD >= 0 { _ = close(inputFD) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // Exited normally: its code; killed by a signal: 128 + the signal, as a shell reports it.
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        var result = Result(status: code, output: limitReached ? Data() : output, error: errors)
        result.outputLimitReached = limitReached
        return result
    }

    private static func closeAll(_ fds: [Int32]) {
        for fd in fds where fd >= 0 { _ = close(fd) }
    }
}
