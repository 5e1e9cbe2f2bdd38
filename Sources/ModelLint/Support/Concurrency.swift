import Foundation

/// `map` over independent work items on all cores, results in input order. Inlinable: its callers are in other
/// targets, and unspecialized it would copy every item and result through their type's metadata.
@inlinable
package func concurrentMap<T, R>(_ items: [T], _ transform: (T) -> R) -> [R] {
    if items.count < 2 { return items.map(transform) }
    let results = UnsafeMutableBufferPointer<R?>.allocate(capacity: items.count)
    results.initialize(repeating: nil)
    // Deinitialized as well as freed: every result is a copy the returned array also holds.
    defer {
        results.deinitialize()
        results.deallocate()
    }
    let box = UnsafeSendableBox(results)
    let inputs = UnsafeSendableBox(items)
    withoutActuallyEscaping(transform) { transform in
        let work = UnsafeSendableBox(transform)
        DispatchQueue.concurrentPerform(iterations: items.count) { i in
            box.value[i] = work.value(inputs.value[i])
        }
    }
    return results.map { $0! }
}

/// Each concurrent iteration writes only its own slot.
@usableFromInline
package struct UnsafeSendableBox<T>: @unchecked Sendable {
    @usableFromInline package let value: T
    @inlinable package init(_ value: T) { self.value = value }
}
