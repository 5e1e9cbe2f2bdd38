import ModelLintModel
import ModelLintSupport

/// The two versions of a compared pair, without what matched between them: all an `EntityPairRule` may read
/// besides its own entity pair.
package struct ComparedVersions: Sendable {
    package var from: VersionRef
    package var to: VersionRef
    /// Consecutive readable versions (what the developer just changed), as opposed to older -> current.
    package var isAdjacent: Bool

    package init(from: VersionRef, to: VersionRef, isAdjacent: Bool) {
        self.from = from
        self.to = to
        self.isAdjacent = isAdjacent
    }

    package var between: String { "between \(from.name) and \(to.name)" }
    /// For removals, whose location is in the older file: name the newer file too.
}

/// What changed about a matched property (docs/core-data.md names them).
package enum PropertyFacet: String, Sendable, CaseIterable {
    case name, type, optional, defaultValue, externalStorage, transformer, customClass, derivation,
        preserveAfterDeletion
    case cloudEncryption, validation, indexed, spotlight
    case destination, inverse, toMany, minCount, maxCount, ordered, deleteRule
    case renamingIdentifier, hashModifier, userInfo
}

/// What changed about a matched entity.
package enum EntityFacet: String, Sendable, CaseIterable {
    case name, parent, abstract, hashModifier, uniquenessConstraints, indexes, renamingIdentifier, className, userInfo
}

/// A property matched across two versions by effective renaming identifier, with both declaring entities.
package struct PropertyPair: Sendable {
    package var old: Property
    package var new: Property
    /// The entities that declare each side (an inherited property's is the ancestor).
    package var oldOwner: String
    package var newOwner: String
    package var facets: [PropertyFacet]

    @inlinable package var oldAttribute: Attribute? { if case .attribute(let a) = old { return a } else { return nil } }
    @inlinable package var newAttribute: Attribute? { if case .attribute(let a) = new { return a } else { return nil } }
    @inlinable package var oldRelationship: Relationship? {
        if case .relationship(let r) = old { return r } else { return nil }
    }
    @inlinable package var newRelationship: Relationship? {
        if case .relationship(let r) = new { return r } else { return nil }
    }

    package init(old: Property, new: Property, oldOwner: String, newOwner: String, facets: [PropertyFacet]) {
        self.old = old
        self.new = new
        self.oldOwner = oldOwner
        self.newOwner = newOwner
        self.facets = facets
    }
}

/// An entity matched across two versions, and what happened to the properties it declares.
/// A class: every change rule walks every pair of every compared version pair, and a value would copy two
/// entities' worth of values at each step of that walk.
package final class EntityPair: Sendable {
    package let old: Entity
    package let new: Entity
    /// Where each entity stands in its version's `entities`.
    package let oldIndex: Int
    package let newIndex: Int
    package let facets: [EntityFacet]
    /// Persistent on both sides, same kind. Only pairs whose newer element this entity declares.
    package let matchedProperties: [PropertyPair]
    /// The matched pairs that differ in some facet: a rule that compares a property's two sides finds nothing on the
    /// others (a test holds every change rule to it on every pair of the fixtures and the corpus).
    package let changedProperties: [PropertyPair]
    /// Persistent in the newer version, unmatched (including transient -> persistent).
    package let addedProperties: [Property]
    /// Persistent in the older version, unmatched, and not merely made transient.
    package let removedProperties: [Property]
    /// Persistent in the older version, transient now under the same identifier.
    package let becameTransient: [PropertyPair]
    /// Same identifier, an attribute on one side and a relationship on the other.
    package let kindChanged: [PropertyPair]
    /// Both entities, their ancestors and what their relationships point at are the same elements (equal lineage
    /// keys): nothing to match, nothing changed, and no change rule judges the pair (`Judge.changeFindings`).
    package let isUnchanged: Bool

    /// A pair of entities of equal lineage keys.
    package static func unchanged(old: Entity, new: Entity, oldIndex: Int, newIndex: Int) -> EntityPair {
        EntityPair(old: old, new: new, oldIndex: oldIndex, newIndex: newIndex, facets: [], isUnchanged: true)
    }

    package init(
        old: Entity, new: Entity, oldIndex: Int, newIndex: Int, facets: [EntityFacet],
        matchedProperties: [PropertyPair] = [],
        addedProperties: [Property] = [], removedProperties: [Property] = [], becameTransient: [PropertyPair] = [],
        kindChanged: [PropertyPair] = [], isUnchanged: Bool = false
    ) {
        self.isUnchanged = isUnchanged
        self.old = old
        self.new = new
        self.oldIndex = oldIndex
        self.newIndex = newIndex
        self.facets = facets
        self.matchedProperties = matchedProperties
        changedProperties = matchedProperties.filter { !$0.facets.isEmpty }
        self.addedProperties = addedProperties
        self.removedProperties = removedProperties
        self.becameTransient = becameTransient
        self.kindChanged = kindChanged
    }
}

/// Everything that differs between two versions, matched the way inferred migration matches:
/// entities by effective renaming identifier, then properties within matched entities.
package struct ModelDiff: Sendable {
    package var from: VersionRef
    package var to: VersionRef
    /// Consecutive readable versions (what the developer just changed), as opposed to older -> current.
    package var isAdjacent: Bool
    package var matchedEntities: [EntityPair] = []
    package var addedEntities: [Entity] = []
    package var removedEntities: [Entity] = []

    /// The two versions compared, without what matched between them.
    package var versions: ComparedVersions { ComparedVersions(from: from, to: to, isAdjacent: isAdjacent) }
    package var between: String { versions.between }

    package init(from: VersionRef, to: VersionRef, isAdjacent: Bool) {
        self.init(from: from, to: to, isAdjacent: isAdjacent, cache: nil)
    }

    /// `cache`: pairs already worked out for the same newer version (`EntityPairCache`), moved instead of matched again.
    package init(from: VersionRef, to: VersionRef, isAdjacent: Bool, cache: EntityPairCache?) {
        self.from = from
        self.to = to
        self.isAdjacent = isAdjacent
        let old = from.model
        let new = to.model

        // Indices, not entities: no entity of either version is copied into a lookup.
        var matchedOld = [Bool](repeating: false, count: old.entities.count)
        var pending: [(slot: Int, i: Int, j: Int, cacheKey: EntityPairCache.Key?, oldChain: [Entity])] = []
        var pairs: [EntityPair?] = []
        for j in new.entities.indices {
            guard let i = old.entityIndexByRenamingID[new.entities[j].renamingIdentifier], !matchedOld[i] else {
                addedEntities.append(new.entities[j])
                continue
            }
            matchedOld[i] = true
            let oldEntity = old.entities[i]
            let newEntity = new.entities[j]
            let oldKey = old.keys.lineage[i]
            let newKey = new.keys.lineage[j]
            // Most entities are untouched from one version to the next: nothing to match, nothing changed.
            if oldKey == newKey {
                pairs.append(EntityPair.unchanged(old: oldEntity, new: newEntity, oldIndex: i, newIndex: j))
                continue
            }
            // A repeat of a pair already worked out for this newer version moves from the cache. A deep chain is
            // matched afresh: finding its properties' places for the cache costs what matching does.
            var key: EntityPairCache.Key?
            var oldChain: [Entity] = []
            if let cache, old.hierarchy.chain(from: i).count <= EntityPairCache.maxChain {
                let k = EntityPairCache.Key(
                    oldLineage: oldKey, newLineage: newKey, newEntity: newEntity.name, newVersion: to.name)
                oldChain = old.ancestry(of: oldEntity)
                if let cached = cache.entry(for: k), let moved = cached.moved(to: oldEntity, at: i, chain: oldChain) {
                    pairs.append(moved)
                    continue
                }
                key = k
            }
            pending.append((pairs.count, i, j, key, oldChain))
            pairs.append(nil)
        }
        // Short chains are walked pair by pair; deep ones are matched together, one pass per version.
        let isDeep = pending.map {
            old.hierarchy.chain(from: $0.i).count > Model.shortChain
                || new.hierarchy.chain(from: $0.j).count > Model.shortChain
        }
        var deep = Self.pairs(zip(pending, isDeep).filter { $0.1 }.map { ($0.0.i, $0.0.j) }, old: old, new: new)
            .makeIterator()
        let worked = zip(pending, isDeep).map { item, isDeep in
            isDeep ? deep.next()! : Self.pairWalkingChains(item.i, item.j, old: old, new: new)
        }
        for (item, pair) in zip(pending, worked) {
            pairs[item.slot] = pair
            if let cache, let key = item.cacheKey {
                cache.insert(EntityPairCache.Entry(pair: pair, chain: item.oldChain), for: key)
            }
        }
        matchedEntities = pairs.map { $0! }
        var seenRemoved: Set<String> = []
        for i in old.entities.indices where !matchedOld[old.firstIndexOfRenamingID[i]] {
            if seenRemoved.insert(old.entities[i].name).inserted { removedEntities.append(old.entities[i]) }
        }
    }

    /// The matched pair for the newer entity with this name, if any.
    package func pair(forNew name: String) -> EntityPair? { matchedEntities.first { $0.new.name == name } }

    /// One pair matched by walking both entities' effective properties: what `pairs` gives, for short chains
    /// (a test holds the two to the same pairs on every fixture and corpus bundle, and on deep hierarchies).
    package static func pairWalkingChains(_ i: Int, _ j: Int, old: Model, new: Model) -> EntityPair {
        let oldEntity = old.entities[i]
        let newEntity = new.entities[j]
        var matched: [PropertyPair] = []
        var added: [Property] = []
        var removed: [Property] = []
        var becameTransient: [PropertyPair] = []
        var kindChanged: [PropertyPair] = []
        let oldEffective = old.effectiveProperties(of: oldEntity)
        var oldPersistent = FewKeys(capacity: oldEffective.count)
        var oldFirsts: [(Property, String)] = []
        for (property, owner) in oldEffective where !property.isTransient {
            if oldPersistent.recordFirst(property.renamingIdentifier) { oldFirsts.append((property, owner)) }
        }
        var consumed = [Bool](repeating: false, count: oldFirsts.count)
        for (property, owner) in new.effectiveProperties(of: newEntity) {
            guard let k = oldPersistent.index(of: property.renamingIdentifier), !consumed[k] else {
                if !property.isTransient && owner == newEntity.name { added.append(property) }
                continue
            }
            let (previous, previousOwner) = oldFirsts[k]
            consumed[k] = true
            // One changed element gives one finding: the entity that declares the newer element reports it.
            guard owner == newEntity.name else { continue }
            let pair = PropertyPair(
                old: previous, new: property, oldOwner: previousOwner, newOwner: owner,
                facets: propertyFacets(previous, property, old: old, new: new))
            if property.isTransient {
                becameTransient.append(pair)
            } else if previous.kindName != property.kindName {
                kindChanged.append(pair)
            } else {
                matched.append(pair)
            }
        }
        for (k, (property, owner)) in oldFirsts.enumerated() where !consumed[k] && owner == oldEntity.name {
            removed.append(property)
        }
        removed.sort { ($0.location.line ?? 0) < ($1.location.line ?? 0) }
        return EntityPair(
            old: oldEntity, new: newEntity, oldIndex: i, newIndex: j,
            facets: entityFacets(oldEntity, newEntity, old: old, new: new),
            matchedProperties: matched, addedProperties: added, removedProperties: removed,
            becameTransient: becameTransient, kindChanged: kindChanged)
    }

    /// Matches the properties of entity pairs (older index, newer index) the way inferred migration does:
    /// by renaming identifier over each entity's effective properties (inherited ones too), transient ones
    /// taking no part on the older side; one changed element gives one finding, so only pairs whose newer
    /// element the entity declares itself are kept. The inherited side is looked up in one pass per version
    /// (`InheritedLookup`), never by listing every entity's inherited properties.
    package static func pairs(_ pending: [(i: Int, j: Int)], old: Model, new: Model) -> [EntityPair] {
        guard !pending.isEmpty else { return [] }
        // Own properties that repeat an identifier seen earlier in the entity's effective order, by position.
        var repeatsInNew: [Int: Set<Int>] = [:]
        var repeatsInOld: [Int: Set<Int>] = [:]
        for (i, j) in pending {
            repeatsInNew[j] = Set(new.earlierDeclarations(ofEntityAt: j, by: .renamingID).map(\.position))
            repeatsInOld[i] = Set(old.earlierDeclarations(ofEntityAt: i, by: .persistentRenamingID).map(\.position))
        }
        // The older version is asked about the newer entities' own identifiers that come first in their effective
        // order; the newer one about the older entities' own persistent ones.
        var askOld: [Int: Set<String>] = [:]
        var askNew: [Int: Set<String>] = [:]
        for (i, j) in pending {
            for (k, property) in new.entities[j].properties.enumerated() where !repeatsInNew[j]!.contains(k) {
                askOld[i, default: []].insert(property.renamingIdentifier)
            }
            for (k, property) in old.entities[i].properties.enumerated()
            where !property.isTransient && !repeatsInOld[i]!.contains(k) {
                askNew[j, default: []].insert(property.renamingIdentifier)
            }
        }
        let inOld = InheritedLookup.first(
            in: old, key: { $0.isTransient ? nil : $0.renamingIdentifier }, questions: askOld)
        let inNew = InheritedLookup.first(in: new, key: { $0.renamingIdentifier }, questions: askNew)
        return pending.map { i, j in
            let oldEntity = old.entities[i]
            let newEntity = new.entities[j]
            var matched: [PropertyPair] = []
            var added: [Property] = []
            var removed: [Property] = []
            var becameTransient: [PropertyPair] = []
            var kindChanged: [PropertyPair] = []
            for (k, property) in newEntity.properties.enumerated() {
                // A later property with an identifier already seen in this entity's effective order takes no part.
                guard !repeatsInNew[j]!.contains(k), let previous = inOld[i]?[property.renamingIdentifier] else {
                    if !property.isTransient { added.append(property) }
                    continue
                }
                let pair = PropertyPair(
                    old: previous.property, new: property, oldOwner: old.entities[previous.owner].name,
                    newOwner: newEntity.name,
                    facets: propertyFacets(previous.property, property, old: old, new: new))
                if property.isTransient {
                    becameTransient.append(pair)
                } else if previous.property.kindName != property.kindName {
                    kindChanged.append(pair)
                } else {
                    matched.append(pair)
                }
            }
            for (k, property) in oldEntity.properties.enumerated()
            where !property.isTransient && !repeatsInOld[i]!.contains(k)
                && inNew[j]?[property.renamingIdentifier] == nil
            {
                removed.append(property)
            }
            removed.sort { ($0.location.line ?? 0) < ($1.location.line ?? 0) }
            return EntityPair(
                old: oldEntity, new: newEntity, oldIndex: i, newIndex: j,
                facets: entityFacets(oldEntity, newEntity, old: old, new: new),
                matchedProperties: matched, addedProperties: added, removedProperties: removed,
                becameTransient: becameTransient, kindChanged: kindChanged)
        }
    }

    package static func entityFacets(_ a: Entity, _ b: Entity, old: Model, new: Model) -> [EntityFacet] {
        var facets: [EntityFacet] = []
        if a.name != b.name { facets.append(.name) }
        let oldParent = old.renamingIdentifier(ofEntityNamed: a.parentEntity) ?? a.parentEntity
        let newParent = new.renamingIdentifier(ofEntityNamed: b.parentEntity) ?? b.parentEntity
        if oldParent != newParent { facets.append(.parent) }
        if a.isAbstract != b.isAbstract { facets.append(.abstract) }
        if a.versionHashModifier != b.versionHashModifier { facets.append(.hashModifier) }
        if a.uniquenessConstraints.map(\.properties) != b.uniquenessConstraints.map(\.properties)
            && Set(a.uniquenessConstraints.map { Set($0.properties) })
                != Set(b.uniquenessConstraints.map { Set($0.properties) })
        {
            facets.append(.uniquenessConstraints)
        }
        if (a.fetchIndexes != b.fetchIndexes || a.compoundIndexes != b.compoundIndexes)
            && a.indexSignature != b.indexSignature
        {
            facets.append(.indexes)
        }
        if a.elementID != b.elementID { facets.append(.renamingIdentifier) }
        if a.representedClassName != b.representedClassName,
            !old.unrecorded.contains(.classNames), !new.unrecorded.contains(.classNames)
        {
            facets.append(.className)
        }
        if a.userInfo != b.userInfo && Set(a.userInfo) != Set(b.userInfo) { facets.append(.userInfo) }
        return facets
    }

    package static func propertyFacets(_ a: Property, _ b: Property, old: Model, new: Model) -> [PropertyFacet] {
        func destinationDiffers(_ x: Relationship, _ y: Relationship) -> Bool {
            (old.renamingIdentifier(ofEntityNamed: x.destinationEntity) ?? x.destinationEntity)
                != (new.renamingIdentifier(ofEntityNamed: y.destinationEntity) ?? y.destinationEntity)
        }
        // One fields box is one content (a property repeated from another version shares its box): only what the
        // two versions say around a relationship, its destination's renaming identifier, can differ.
        switch (a, b) {
        case (.attribute(let x), .attribute(let y)) where x.fields === y.fields: return []
        case (.relationship(let x), .relationship(let y)) where x.fields === y.fields:
            return destinationDiffers(x, y) ? [.destination] : []
        default: break
        }
        var facets: [PropertyFacet] = []
        if a.name != b.name { facets.append(.name) }
        if a.elementID != b.elementID { facets.append(.renamingIdentifier) }
        if a.userInfo != b.userInfo && Set(a.userInfo) != Set(b.userInfo) { facets.append(.userInfo) }
        switch (a, b) {
        case (.attribute(let x), .attribute(let y)):
            if x.type != y.type { facets.append(.type) }
            if x.isOptional != y.isOptional { facets.append(.optional) }
            if !DefaultValue.sameValue(x, y) { facets.append(.defaultValue) }
            if x.allowsExternalBinaryDataStorage != y.allowsExternalBinaryDataStorage {
                facets.append(.externalStorage)
            }
            // Core Data reads a transformer only on a Transformable attribute: on any other type it is inert.
            if x.type == .transformable || y.type == .transformable,
                TransformerName.effective(x) != TransformerName.effective(y)
            {
                facets.append(.transformer)
            }
            if (x.customClassName ?? "") != (y.customClassName ?? ""),
                !old.unrecorded.contains(.classNames), !new.unrecorded.contains(.classNames)
            {
                facets.append(.customClass)
            }
            if x.isDerived != y.isDerived || x.derivationExpression != y.derivationExpression {
                facets.append(.derivation)
            }
            if x.preserveAfterDeletion != y.preserveAfterDeletion { facets.append(.preserveAfterDeletion) }
            if x.allowsCloudEncryption != y.allowsCloudEncryption { facets.append(.cloudEncryption) }
            if x.minValueString != y.minValueString || x.maxValueString != y.maxValueString
                || x.regularExpressionString != y.regularExpressionString,
                !old.unrecorded.contains(.validation), !new.unrecorded.contains(.validation)
            {
                facets.append(.validation)
            }
            if x.isIndexed != y.isIndexed { facets.append(.indexed) }
            if x.spotlightIndexingEnabled != y.spotlightIndexingEnabled { facets.append(.spotlight) }
            if x.versionHashModifier != y.versionHashModifier { facets.append(.hashModifier) }
        case (.relationship(let x), .relationship(let y)):
            if x.isOptional != y.isOptional { facets.append(.optional) }
            if destinationDiffers(x, y) { facets.append(.destination) }
            if x.inverseName != y.inverseName { facets.append(.inverse) }
            if x.isToMany != y.isToMany { facets.append(.toMany) }
            if (x.minCount ?? 0) != (y.minCount ?? 0) { facets.append(.minCount) }
            if (x.maxCount ?? 0) != (y.maxCount ?? 0) { facets.append(.maxCount) }
            if x.isOrdered != y.isOrdered { facets.append(.ordered) }
            if x.deleteRule != y.deleteRule { facets.append(.deleteRule) }
            if x.isIndexed != y.isIndexed { facets.append(.indexed) }
            if x.versionHashModifier != y.versionHashModifier { facets.append(.hashModifier) }
        default:
            break
        }
        return facets
    }
}
