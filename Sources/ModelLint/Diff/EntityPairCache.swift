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
        /// How many entities the older entity's chain holds (the entity and its ancestors).
        private let chainLength: Int
        /// Where each older property of the pair is declared in that chain (matched, removed, became transient,
        /// changed kind, in that order), as (entity in the chain, property of that entity); nil when one is not found
        /// there as it is (then a repeat is matched afresh).
        private let declarations: [(entity: Int, property: Int)]?

        /// The pair for another older entity of the same lineage, whose chain (the entity, then its ancestors) is
        /// `chain`: its older properties are that chain's own, at the same places; nil if they cannot be (then the
        /// pair is worked out afresh).
        package func moved(to oldEntity: Entity, at oldIndex: Int, chain: [Entity]) -> EntityPair? {
            guard let declarations, chain.count == chainLength,
                declarations.allSatisfy({ $0.property < chain[$0.entity].properties.count })
            else { return nil }
            // Equal lineage is equal content: the property at the same place of this chain is the cached pair's
            // older property, located in this version.
            var next = declarations.makeIterator()
            func move(_: Property) -> Property {
                let (entity, property) = next.next()!
                return chain[entity].properties[property]
            }
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

        /// `chain`: the older entity and its ancestors, nearest first.
        package init(pair: EntityPair, chain: [Entity]) {
            self.pair = pair
            chainLength = chain.count
            let olds =
                pair.matchedProperties.map(\.old) + pair.removedProperties + pair.becameTransient.map(\.old)
                + pair.kindChanged.map(\.old)
            // Each one found by its place among the chain's element locations, then held to be that very property.
            let locations = chain.map(\.elementLocations)
            var found: [(entity: Int, property: Int)] = []
            for old in olds {
                guard
                    let place = locations.indices.lazy.compactMap({ c in
                        locations[c].position(of: old.location).map { (entity: c, property: $0 - 1) }
                    }).first,
                    place.property >= 0, place.property < chain[place.entity].properties.count,
                    chain[place.entity].properties[place.property] == old
                else {
                    declarations = nil
                    return
                }
                found.append(place)
            }
            declarations = found
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
