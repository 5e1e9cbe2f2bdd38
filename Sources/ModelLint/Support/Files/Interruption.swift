import Foundation
import Dispatch

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What an interrupted run leaves behind: nothing. The temporary files and folders this process is writing are
/// registered while they exist; on SIGINT or SIGTERM they are removed and the process exits 130 or 143 (128 plus
/// the signal, as a shell reports it). Targets are replaced by a rename, so none is ever half-written either.
package enum Interruption {
    private static let live = Locked(Set<String>())
    /// Kept alive for the process's life; written once, before any other thread runs.
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// `path` is being written and is not yet in place: removed if the run is interrupted.
    package static func register(_ path: String) { live.withLock { _ = $0.insert(path) } }
    /// `path` was renamed into place or removed.
    package static func unregister(_ path: String) { live.withLock { _ = $0.remove(path) } }

    /// Handles SIGINT and SIGTERM on a queue of their own (not in a signal handler, where removing files is not
    /// safe). Called once, by the executable, before anything else starts; library callers (tests) keep the
    /// default behaviour.
    package static func handleSignals() {
        sources = [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global(qos: .userInitiated))
            source.setEventHandler {
                for path in live.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
                _exit(128 + signalNumber)
            }
            source.resume()
            return source
        }
    }
}
