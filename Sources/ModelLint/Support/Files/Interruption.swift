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
    /// Paths being written, and (folder, name prefix) pairs whose files are: a temporary file is registered by its
    /// prefix before it is created, so no moment exists when it is on disk and unknown here.
    private static let live = Locked((paths: Set<String>(), prefixes: [String: Int]()))
    /// Kept alive for the process's life; written once, before any other thread runs.
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// `path` is being written and is not yet in place: removed if the run is interrupted.
    package static func register(_ path: String) { live.withLock { _ = $0.paths.insert(path) } }
    /// `path` was renamed into place or removed.
    package static func unregister(_ path: String) { live.withLock { _ = $0.paths.remove(path) } }

    /// Files named `prefix…` in `folder` are about to be created: removed if the run is interrupted.
    package static func register(folder: String, prefix: String) {
        live.withLock { $0.prefixes[folder + "/" + prefix, default: 0] += 1 }
    }
    package static func unregister(folder: String, prefix: String) {
        live.withLock { state in
            let key = folder + "/" + prefix
            state.prefixes[key] = (state.prefixes[key] ?? 1) > 1 ? state.prefixes[key]! - 1 : nil
        }
    }

    /// Handles SIGINT and SIGTERM on a queue of their own (not in a signal handler, where removing files is not
    /// safe). Called once, by the executable, before anything else starts; library callers (tests) keep the
    /// default behaviour.
    package static func handleSignals() {
        sources = [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global(qos: .userInitiated))
            source.setEventHandler {
                // The lock is held to the exit: a writer that registers another file now waits, and never creates it.
                live.withLock { state in
                    for path in state.paths { try? FileManager.default.removeItem(atPath: path) }
                    for key in state.prefixes.keys {
                        let folder = (key as NSString).deletingLastPathComponent
                        let prefix = (key as NSString).lastPathComponent
                        for name in DirectoryListing.entries(of: folder).names where name.hasPrefix(prefix) {
                            unlink(folder + "/" + name)
                        }
                    }
                    _exit(128 + signalNumber)
                }
            }
            source.resume()
            return source
        }
    }
}
