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
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid = pid_t()
        // No program may inherit another's pipes: a child holding a copy of another's input keeps that input from
        // ever ending (two `git cat-file --batch` started at once each waited for the other's). The pipes are made
        // closed on exec, under the lock every start takes, so no start on another thread falls between the two.
        let spawned = spawning.withLock { _ -> Int32 in
            guard closedOnExec(pipe: &toChild) else { return -1 }
            guard closedOnExec(pipe: &fromChild) else {
                closeAll(toChild)
                return -1
            }
            guard closedOnExec(pipe: &errorsFromChild) else {
                closeAll(toChild + fromChild)
                return -1
            }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            // The three streams, without the flag (a descriptor made by `dup2` is inherited).
            posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
            posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errorsFromChild[1], 2)
            let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
            _ = close(toChild[0])
            _ = close(fromChild[1])
            _ = close(errorsFromChild[1])
            if spawned != 0 { closeAll([toChild[1], fromChild[0], errorsFromChild[0]]) }
            return spawned
        }
        guard spawned == 0 else { return nil }
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

    /// Held while a program's pipes are made and it is started.
    private static let spawning = Locked(())

    /// A pipe whose ends close when a program is started (`FD_CLOEXEC`); `spawning` held.
    private static func closedOnExec(pipe fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private static func closeAll(_ fds: [Int32]) {
        for fd in fds where fd >= 0 { _ = close(fd) }
    }
}
