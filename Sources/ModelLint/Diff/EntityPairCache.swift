import Foundation
import ModelLintSupport
import ModelLintModel

/// Matched entity pairs already worked out against one newer version. In `direct` mode every older version
/// is compared with the current one, and older versions repeat most entities: an older entity whose lineage
/// (its content and its ancestors', its destinations' identifiers) was paired with the same newer entity
/// before pairs the same way, with only the older elements' places differing. Pairs are worked out in
/// parallel, so the cache is locked; which pair fills an entry first makes no difference.
package final class EntityPairCache: Sendable {
    package init() {}

    package struct Key: Hashable, Sendable {
        package var oldLineage: Int
        package var newLineage: Int
        package var newEntity: String
        /// The newer version (names are unique in a bundle): the newer side must be the very same elements.
        package var newVersion: String

        package init(oldLineage: Int, newLineage: Int, newEntity: String, newVersion: String) {
            self.oldLineage = oldLineage
            self.newLineage = newLineage
            self.newEntity = newEntity
            self.newVersion = newVersion
        }
    }

    package struct Entry: Sendable {
        package var pair: EntityPair
        /// The older entity's and its ancestors' element locations (`Entity.elementLocations`, nearest first).
        package var oldLocations: [SourceLocation]
        /// Where each older property of the pair stands among `oldLocations` (matched, removed, became transient,
        /// changed kind, in that order), found once when the entry is made; nil when one cannot be placed.
        private let positions: [Int]?

        /// The pair for another older entity of the same lineage, whose chain's locations are `locations`;
        /// nil if an older element cannot be placed (then the pair is worked out afresh).
        package func moved(to oldEntity: Entity, at oldIndex: Int, locations: [SourceLocation]) -> EntityPair? {
            guard let positions, locations.count == oldLocations.count else { return nil }
            var next = positions.makeIterator()
            func move(_ property: Property) -> Property { property.located(at: locations[next.next()!]) }
            func move(_ pair: PropertyPair) -> PropertyPair {
                var moved = pair
                moved.old = move(pair.old)
                return moved
            }
            let matched = pair.matchedProperties.map(move)
            let removed = pair.removedProperties.map(move)
            let becameTransient = pair.becameTransient.map(move)
            let kindChanged = pair.kindChanged.map(move)
            return EntityPair(
                old: oldEntity, new: pair.new, oldIndex: oldIndex, newIndex: pair.newIndex, facets: pair.facets,
                matchedProperties: matched, addedProperties: pair.addedProperties,
                removedProperties: removed.sorted { ($0.location.line ?? 0) < ($1.location.line ?? 0) },
                becameTransient: becameTransient, kindChanged: kindChanged)
        }

        package init(pair: EntityPair, oldLocations: [SourceLocation]) {
            self.pair = pair
            self.oldLocations = oldLocations
            let olds =
                pair.matchedProperties.map(\.old) + pair.removedProperties + pair.becameTransient.map(\.old)
                + pair.kindChanged.map(\.old)
            let found = olds.map { oldLocations.position(of: $0.location) }
            positions = found.contains(nil) ? nil : found.map { $0! }
        }
    }

    /// Chains longer than this are never cached (see `ModelDiff`).
    package static let maxChain = 16

    private let state = Locked((entries: [Key: Entry](), hits: 0))
    /// How many lookups found a pair (tests and benchmarks read it).
    package var hits: Int { state.withLock { $0.hits } }

    package func entry(for key: Key) -> Entry? {
        state.withLock { state in
            let found = state.entries[key]
            if found != nil { state.hits += 1 }
            return found
        }
    }

    package func insert(_ entry: Entry, for key: Key) {
        state.withLock { state in
            if state.entries[key] == nil { state.entries[key] = entry }
        }
    }
}
