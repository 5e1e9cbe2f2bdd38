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
