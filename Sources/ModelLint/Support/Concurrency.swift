import Dispatch
import Foundation

/// `map` over independent work items on all cores, results in input order. Inlinable: its callers are in other
/// targets, and unspecialized it would copy every item and result through their type's metadata.
@inlinable
package func concurrentMap<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> R) -> [R] {
    if items.count < 2 { return items.map(transform) }
    let results = Locked([R?](repeating: nil, count: items.count))
    DispatchQueue.concurrentPerform(iterations: items.count) { i in
        let result = transform(items[i])
        results.withLock { $0[i] = result }
    }
    return results.withLock { $0.map { $0! } }
}

/// Work started on another thread at once, its result taken when needed: `value` waits for it. A caller that may
/// leave before taking it calls `wait()` on the way out, so no work (no git process) outlives what started it.
package final class Pending<Value: Sendable>: Sendable {
    private let done = DispatchGroup()
    private let result = Locked<Value?>(nil)

    package init(_ work: @escaping @Sendable () -> Value) {
        DispatchQueue.global().async(group: done) { [result] in
            let value = work()
            result.withLock { $0 = value }
        }
    }

    package func wait() { done.wait() }

    package var value: Value {
        done.wait()
        return result.withLock { $0! }
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
