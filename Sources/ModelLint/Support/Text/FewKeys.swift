/// A few dozen distinct string keys (one entity's property names) in the order first recorded, each found by its
/// position, which indexes the caller's own values. Up to `scanned` keys are compared in turn: a short name
/// compares in a step or two, where hashing it into a growing dictionary costs a few hundred instructions. Past
/// that, a `NameIndex` finds them.
package struct FewKeys {
    package static let scanned = 32

    package private(set) var keys: [String] = []
    private var table = NameIndex()
    private let hashes: Bool

    package init(capacity: Int) {
        hashes = capacity > Self.scanned
        keys.reserveCapacity(capacity)
        if hashes { table = NameIndex(capacity: capacity) }
    }

    /// Where `key` was first recorded, if it was.
    package func index(of key: String) -> Int? {
        hashes ? table[key] : keys.firstIndex(of: key)
    }

    /// Records `key` unless it is already recorded; whether it was (its position is then the last).
    @discardableResult
    package mutating func recordFirst(_ key: String) -> Bool { earlierIndex(recording: key) == nil }

    /// Where `key` was first recorded, if it was; otherwise records it (at the last position) and gives nil. One
    /// search where `index(of:)` then `recordFirst` make two.
    package mutating func earlierIndex(recording key: String) -> Int? {
        if hashes {
            // Every recorded key's value is a position before this one.
            let position = table.first(key, else: keys.count)
            guard position == keys.count else { return position }
        } else if let position = keys.firstIndex(of: key) {
            return position
        }
        keys.append(key)
        return nil
    }
}
