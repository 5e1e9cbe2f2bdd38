import Dispatch
import Foundation

/// `map` over independent work items on all cores, results in input order. Inlinable: its callers are in other
/// targets, and unspecialized it would copy every item and result through their type's metadata.
///
/// Neighbouring items share most of what they read (a version and the next, the pairs of one version): a core takes
/// a run of neighbours at a time, four runs per core, so two cores seldom count references on the same objects at
/// once. Up to four items per core, each item is a run of its own.
@inlinable
package func concurrentMap<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> R) -> [R] {
    if items.count < 2 { return items.map(transform) }
    let results = Locked([R?](repeating: nil, count: items.count))
    let runs = min(items.count, 4 * activeCores)
    DispatchQueue.concurrentPerform(iterations: runs) { run in
        let range = (run * items.count / runs)..<((run + 1) * items.count / runs)
        let runResults = range.map { transform(items[$0]) }
        results.withLock { all in
            for (i, result) in zip(range, runResults) { all[i] = result }
        }
    }
    return results.withLock { $0.map { $0! } }
}

/// The cores this process may use, asked once: Foundation reads the cgroup's quota and CPU set files to answer.
@usableFromInline package let activeCores = ProcessInfo.processInfo.activeProcessorCount

/// Work started on another thread at once, its result taken when needed: `value` waits for it. A caller that may
/// leave before taking it calls `wait()` on the way out, so no work (no git process) outlives what started it.
///
/// Work that no thread has started when it is waited for runs on the waiting thread. Pending work may itself wait
/// for pending work, and Dispatch's pool has as many threads as the process has cores (one, in a container held to
/// one core): waiting for work queued behind the waiter would hold the pool until Dispatch adds a thread, a second
/// later.
package final class Pending<Value: Sendable>: Sendable {
    private enum Stage: Sendable {
        case queued(@Sendable () -> Value)
        case started
        case finished(Value)
    }

    private let stage: Locked<Stage>
    private let done = DispatchGroup()

    package init(on queue: DispatchQueue = .global(), _ work: @escaping @Sendable () -> Value) {
        stage = Locked(.queued(work))
        done.enter()
        queue.async { [self] in runUnlessStarted() }
    }

    private func runUnlessStarted() {
        let work = stage.withLock { stage -> (@Sendable () -> Value)? in
            guard case .queued(let work) = stage else { return nil }
            stage = .started
            return work
        }
        guard let work else { return }
        let value = work()
        stage.withLock { $0 = .finished(value) }
        done.leave()
    }

    package func wait() {
        runUnlessStarted()
        done.wait()
    }

    package var value: Value {
        wait()
        return stage.withLock { stage in
            guard case .finished(let value) = stage else { preconditionFailure("Pending: waited, not finished") }
            return value
        }
    }
}

/// State shared between threads, reached only through `withLock`: the one place modellint vouches for
/// thread safety itself (`Synchronization.Mutex` needs macOS 15; the package supports 13).
@usableFromInline package final class Locked<State> {
    @usableFromInline let lock = NSLock()
    @usableFromInline var state: State

    @inlinable package init(_ state: State) { self.state = state }

    /// Runs `body` with the state, no other thread inside: keep it short, and never call back into this lock.
    @inlinable package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

// Sound because every read and write of `state` holds `lock`, and what leaves `withLock` is Sendable.
extension Locked: @unchecked Sendable where State: Sendable {}

/// What a run built, kept to the end of the process instead of freed, in the command-line tool: its process ends
/// with `_exit` once the output is written, and freeing a model graph is one thread releasing hundreds of
/// thousands of objects (about a tenth of a WooCommerce check) that nobody waits for. Anywhere else (tests run
/// many commands in one process) `keep` does nothing and values are freed as usual.
package enum Teardown {
    private struct Kept: Sendable {
        var skipsFreeing = false
        var values: [any Sendable] = []
    }

    private static let kept = Locked(Kept())

    /// Said once by the command-line tool, before it runs a command.
    package static func endsWithoutFreeing() { kept.withLock { $0.skipsFreeing = true } }

    /// Keeps `value` (one retain) to the end of the process, when the process ends without freeing.
    package static func keep(_ value: some Sendable) {
        kept.withLock { if $0.skipsFreeing { $0.values.append(value) } }
    }
}
