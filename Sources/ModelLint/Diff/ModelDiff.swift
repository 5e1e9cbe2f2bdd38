/// One side of a compared pair: a readable version.
public struct VersionRef: Sendable {
    public var name: String
    public var contentsPath: String
    public var model: Model

    public init(name: String, contentsPath: String, model: Model) {
        self.name = name
        self.contentsPath = contentsPath
        self.model = model
    }
}

/// What changed about a matched property (core-data-semantics.md §3 and §4 name them).
public enum PropertyFacet: String, Sendable, CaseIterable {
    case name, type, optional, defaultValue, externalStorage, transformer, derivation, preserveAfterDeletion
    case cloudEncryption, validation, indexed
    case destination, inverse, toMany, minCount, maxCount, ordered, deleteRule
    case renamingIdentifier, hashModifier, userInfo
}

/// What changed about a matched entity.
public enum EntityFacet: String, Sendable, CaseIterable {
    case name, parent, abstract, hashModifier, uniquenessConstraints, indexes, renamingIdentifier, className, userInfo
}

/// A property matched across two versions by effective renaming identifier, with both declaring entities.
public struct PropertyPair: Sendable {
    public var old: Property
    public var new: Property
    /// The entities that declare each side (an inherited property's is the ancestor).
    public var oldOwner: String
    public var newOwner: String
    public var facets: [PropertyFacet]

    public var oldAttribute: Attribute? { if case .attribute(let a) = old { return a } else { return nil } }
    public var newAttribute: Attribute? { if case .attribute(let a) = new { return a } else { return nil } }
    public var oldRelationship: Relationship? { if case .relationship(let r) = old { return r } else { return nil } }
    public var newRelationship: Relationship? { if case .relationship(let r) = new { return r } else { return nil } }
}

/// An entity matched across two versions, and what happened to the properties it declares.
/// A class: every change rule walks every pair of every compared version pair, and a copy of two
/// entities' worth of values per step is what that walk cost.
public final class EntityPair: Sendable {
    public let old: Entity
    public let new: Entity
    /// Where each entity stands in its version's `entities`.
    let oldIndex: Int
    let newIndex: Int
    public let facets: [EntityFacet]
    /// Persistent on both sides, same kind. Only pairs whose newer element this entity declares.
    public let matchedProperties: [PropertyPair]
    /// Persistent in the newer version, unmatched (including transient -> persistent).
    public let addedProperties: [Property]
    /// Persistent in the older version, unmatched, and not merely made transient.
    public let removedProperties: [Property]
    /// Persistent in the older version, transient now under the same identifier.
    public let becameTransient: [PropertyPair]
    /// Same identifier, an attribute on one side and a relationship on the other.
    public let kindChanged: [PropertyPair]

    init(
        old: Entity, new: Entity, oldIndex: Int, newIndex: Int, facets: [EntityFacet], matchedProperties: [PropertyPair] = [],
        addedProperties: [Property] = [], removedProperties: [Property] = [], becameTransient: [PropertyPair] = [],
        kindChanged: [PropertyPair] = []
    ) {
        self.old = old
        self.new = new
        self.oldIndex = oldIndex
        self.newIndex = newIndex
        self.facets = facets
        self.matchedProperties = matchedProperties
        self.addedProperties = addedProperties
        self.removedProperties = removedProperties
        self.becameTransient = becameTransient
        self.kindChanged = kindChanged
    }
}

/// Everything that differs between two versions, matched the way inferred migration matches:
/// entities by effective renaming identifier, then properties within matched entities.
public struct ModelDiff: Sendable {
    public var from: VersionRef
    public var to: VersionRef
    /// Consecutive readable versions (what the developer just changed), as opposed to older -> current.
    public var isAdjacent: Bool
    public var matchedEntities: [EntityPair] = []
    public var addedEntities: [Entity] = []
    public var removedEntities: [Entity] = []

    public var between: String { "between \(from.name) and \(to.name)" }

    /// `cache`: pairs already worked out for the same newer version (see `EntityPairCache`).
    public init(from: VersionRef, to: VersionRef, isAdjacent: Bool) {
        self.init(from: from, to: to, isAdjacent: isAdjacent, cache: nil)
    }

    init(from: VersionRef, to: VersionRef, isAdjacent: Bool, cache: EntityPairCache?) {
        self.from = from
        self.to = to
        self.isAdjacent = isAdjacent
        let old = from.model, new = to.model

        // Indices, not entities: copying every entity of both versions into lookups was the diff's main cost.
        var matchedOld = [Bool](repeating: false, count: old.entities.count)
        for j in new.entities.indices {
            if let i = old.entityIndexByRenamingID[new.entities[j].renamingIdentifier], !matchedOld[i] {
                matchedOld[i] = true
                matchedEntities.append(Self.pair(i, j, old: old, new: new, newVersion: to.name, cache: cache))
            } else {
                addedEntities.append(new.entities[j])
            }
        }
        var seenRemoved: Set<String> = []
        for i in old.entities.indices where !matchedOld[old.firstIndexOfRenamingID[i]] {
            if seenRemoved.insert(old.entities[i].name).inserted { removedEntities.append(old.entities[i]) }
        }
    }

    /// The same comparison holding only `pair`: what a rule that judges each pair alone is handed.
    public func alone(_ pair: EntityPair) -> ModelDiff {
        var diff = self
        diff.matchedEntities = [pair]
        diff.addedEntities = []
        diff.removedEntities = []
        return diff
    }

    /// The matched pair for the newer entity with this name, if any.
    public func pair(forNew name: String) -> EntityPair? { matchedEntities.first { $0.new.name == name } }

    private static func pair(_ i: Int, _ j: Int, old: Model, new: Model, newVersion: String, cache: EntityPairCache?) -> EntityPair {
        let oldEntity = old.entities[i], newEntity = new.entities[j]
        let oldKey = old.lineageKeyAt[i], newKey = new.lineageKeyAt[j]
        // Most entities are untouched from one version to the next: nothing to match, nothing changed.
        if oldKey == newKey {
            return EntityPair(old: oldEntity, new: newEntity, oldIndex: i, newIndex: j, facets: [])
        }
        guard let cache else { return pair(i, j, old: old, new: new) }
        let key = EntityPairCache.Key(oldLineage: oldKey, newLineage: newKey, newEntity: newEntity.name, newVersion: newVersion)
        let oldLocations = old.ancestry(of: oldEntity).flatMap(\.elementLocations)
        if let cached = cache.entry(for: key), let moved = cached.moved(to: oldEntity, at: i, locations: oldLocations) {
            return moved
        }
        let worked = pair(i, j, old: old, new: new)
        cache.insert(EntityPairCache.Entry(pair: worked, oldLocations: oldLocations), for: key)
        return worked
    }

    private static func pair(_ i: Int, _ j: Int, old: Model, new: Model) -> EntityPair {
        let oldEntity = old.entities[i], newEntity = new.entities[j]
        var matched: [PropertyPair] = [], added: [Property] = [], removed: [Property] = []
        var becameTransient: [PropertyPair] = [], kindChanged: [PropertyPair] = []
        var oldPersistent: [String: (Property, String)] = [:]
        for (property, owner) in old.effectiveProperties(of: oldEntity) where !property.isTransient {
            if oldPersistent[property.renamingIdentifier] == nil { oldPersistent[property.renamingIdentifier] = (property, owner) }
        }
        var consumed: Set<String> = []
        for (property, owner) in new.effectiveProperties(of: newEntity) {
            let id = property.renamingIdentifier
            guard let (previous, previousOwner) = oldPersistent[id], !consumed.contains(id) else {
                if !property.isTransient && owner == newEntity.name { added.append(property) }
                continue
            }
            consumed.insert(id)
            // One changed element gives one finding: the entity that declares the newer element reports it.
            guard owner == newEntity.name else { continue }
            let pair = PropertyPair(old: previous, new: property, oldOwner: previousOwner, newOwner: owner,
                                    facets: propertyFacets(previous, property, old: old, new: new))
            if property.isTransient {
                becameTransient.append(pair)
            } else if previous.kindName != property.kindName {
                kindChanged.append(pair)
            } else {
                matched.append(pair)
            }
        }
        for (id, (property, owner)) in oldPersistent where !consumed.contains(id) && owner == oldEntity.name {
            removed.append(property)
        }
        removed.sort { ($0.location.line ?? 0) < ($1.location.line ?? 0) }
        return EntityPair(
            old: oldEntity, new: newEntity, oldIndex: i, newIndex: j, facets: entityFacets(oldEntity, newEntity, old: old, new: new),
            matchedProperties: matched, addedProperties: added, removedProperties: removed,
            becameTransient: becameTransient, kindChanged: kindChanged)
    }

    static func entityFacets(_ a: Entity, _ b: Entity, old: Model, new: Model) -> [EntityFacet] {
        var facets: [EntityFacet] = []
        if a.name != b.name { facets.append(.name) }
        let oldParent = old.entity(named: a.parentEntity)?.renamingIdentifier ?? a.parentEntity
        let newParent = new.entity(named: b.parentEntity)?.renamingIdentifier ?? b.parentEntity
        if oldParent != newParent { facets.append(.parent) }
        if a.isAbstract != b.isAbstract { facets.append(.abstract) }
        if a.versionHashModifier != b.versionHashModifier { facets.append(.hashModifier) }
        if a.uniquenessConstraints.map(\.properties) != b.uniquenessConstraints.map(\.properties)
            && Set(a.uniquenessConstraints.map { Set($0.properties) }) != Set(b.uniquenessConstraints.map { Set($0.properties) }) {
            facets.append(.uniquenessConstraints)
        }
        if (a.fetchIndexes != b.fetchIndexes || a.compoundIndexes != b.compoundIndexes) && indexSignature(a) != indexSignature(b) {
            facets.append(.indexes)
        }
        if a.elementID != b.elementID { facets.append(.renamingIdentifier) }
        if a.representedClassName != b.representedClassName { facets.append(.className) }
        if a.userInfo != b.userInfo && Set(a.userInfo) != Set(b.userInfo) { facets.append(.userInfo) }
        return facets
    }

    /// Indexes as an order-insensitive set of (name, elements) descriptions.
    static func indexSignature(_ e: Entity) -> Set<String> {
        Set(e.fetchIndexes.map { index in
            index.name + "(" + index.elements.map { "\($0.property ?? $0.expression ?? ""):\($0.type ?? ""):\($0.order ?? "")" }.joined(separator: ",") + ")"
        } + e.compoundIndexes.map { "compound(" + $0.properties.joined(separator: ",") + ")" })
    }

    static func propertyFacets(_ a: Property, _ b: Property, old: Model, new: Model) -> [PropertyFacet] {
        var facets: [PropertyFacet] = []
        if a.name != b.name { facets.append(.name) }
        if a.elementID != b.elementID { facets.append(.renamingIdentifier) }
        if a.userInfo != b.userInfo && Set(a.userInfo) != Set(b.userInfo) { facets.append(.userInfo) }
        switch (a, b) {
        case let (.attribute(x), .attribute(y)):
            if x.type != y.type { facets.append(.type) }
            if x.isOptional != y.isOptional { facets.append(.optional) }
            if x.defaultValueString != y.defaultValueString || x.defaultDateTimeInterval != y.defaultDateTimeInterval { facets.append(.defaultValue) }
            if x.allowsExternalBinaryDataStorage != y.allowsExternalBinaryDataStorage { facets.append(.externalStorage) }
            if TransformerName.normalized(x.valueTransformerName) != TransformerName.normalized(y.valueTransformerName)
                || (x.customClassName ?? "") != (y.customClassName ?? "") { facets.append(.transformer) }
            if x.isDerived != y.isDerived || x.derivationExpression != y.derivationExpression { facets.append(.derivation) }
            if x.preserveAfterDeletion != y.preserveAfterDeletion { facets.append(.preserveAfterDeletion) }
            if x.allowsCloudEncryption != y.allowsCloudEncryption { facets.append(.cloudEncryption) }
            if x.minValueString != y.minValueString || x.maxValueString != y.maxValueString || x.regularExpressionString != y.regularExpressionString {
                facets.append(.validation)
            }
            if x.isIndexed != y.isIndexed || x.spotlightIndexingEnabled != y.spotlightIndexingEnabled { facets.append(.indexed) }
            if x.versionHashModifier != y.versionHashModifier { facets.append(.hashModifier) }
        case let (.relationship(x), .relationship(y)):
            if x.isOptional != y.isOptional { facets.append(.optional) }
            let oldDestination = old.entity(named: x.destinationEntity)?.renamingIdentifier ?? x.destinationEntity
            let newDestination = new.entity(named: y.destinationEntity)?.renamingIdentifier ?? y.destinationEntity
            if oldDestination != newDestination { facets.append(.destination) }
            if x.inverseName != y.inverseName { facets.append(.inverse) }
            if x.isToMany != y.isToMany { facets.append(.toMany) }
            if (x.minCount ?? 0) != (y.minCount ?? 0) { facets.append(.minCount) }
            if (x.maxCount ?? 0) != (y.maxCount ?? 0) { facets.append(.maxCount) }
            if x.isOrdered != y.isOrdered { facets.append(.ordered) }
            if x.deleteRule != y.deleteRule { facets.append(.deleteRule) }
            if x.versionHashModifier != y.versionHashModifier { facets.append(.hashModifier) }
        default:
            break
        }
        return facets
    }
}

/// `valueTransformerName` as Core Data reads it: absent, empty and `NSKeyedUnarchiveFromData` are the
/// same default; the secure transformer has two spellings.
public enum TransformerName {
    public static func normalized(_ name: String?) -> String {
        switch name ?? "" {
        case "", "NSKeyedUnarchiveFromData", "NSKeyedUnarchiveFromDataTransformerName": return ""
        case "NSSecureUnarchiveFromDataTransformer", "NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformerName":
            return "NSSecureUnarchiveFromData"
        case let other: return other
        }
    }
}
