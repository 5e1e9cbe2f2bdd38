import Foundation
import ModelLintSupport

/// One version's entity version hashes as Core Data computes them (docs/core-data.md), and the two
/// values made of them: the model's `versionChecksum` (staged migration) and `NSStoreModelVersionHashesDigest`.
/// A store opens without migration exactly when its recorded hashes equal the model's.
package struct VersionHashes: Sendable, Equatable {
    /// Entity name -> 32-byte hash (the first entity of each name; a model with two cannot compile anyway).
    package let entities: [String: [UInt8]]
    /// The names in Core Data's order: `NSString` `compare:`, UTF-16 code unit by code unit.
    package let orderedNames: [String]

    package init(entities: [String: [UInt8]]) {
        self.entities = entities
        orderedNames = entities.keys.sorted(by: CoreDataHash.precedes)
    }

    /// base64(SHA-256 of the entity hashes concatenated in name order): `NSManagedObjectModel.versionChecksum`.
    package var versionChecksum: String {
        Data(SHA256.digest(orderedNames.flatMap { entities[$0]! })).base64EncodedString()
    }

    /// base64(SHA-512 of each name and hash, concatenated in name order): a store's `NSStoreModelVersionHashesDigest`.
    package var storeDigest: String {
        Data(SHA512.digest(orderedNames.flatMap { Array($0.utf8) + entities[$0]! })).base64EncodedString()
    }

    package func base64(_ entity: String) -> String? { entities[entity].map { Data($0).base64EncodedString() } }
}

/// The algorithm, from the model graph. Verified bit for bit against Xcode's output for inheritance, uniqueness
/// constraints, transient properties, ordered, self-referencing and many-to-many relationships, property-level
/// modifiers, preserveAfterDeletion and derived attributes. Implemented as specified but not verified on real
/// files (docs/digests.md says so too): self-inverse relationships, composite attributes, the external-storage
/// byte, entity-level modifiers, and the order of non-ASCII names.
package enum CoreDataHash {
    /// NSAttributeType's raw values.
    package static func typeCode(_ type: AttributeType) -> UInt32 {
        switch type {
        case .undefined, .unknown: return 0
        case .integer16: return 100
        case .integer32: return 200
        case .integer64: return 300
        case .decimal: return 400
        case .double: return 500
        case .float: return 600
        case .string: return 700
        case .boolean: return 800
        case .date: return 900
        case .binary: return 1000
        case .uuid: return 1100
        case .uri: return 1200
        case .transformable: return 1800
        case .objectID: return 2000
        case .composite: return 2100
        }
    }

    /// `NSString compare:` for these names: UTF-16 code units in order. Names without a character beyond U+FFFF
    /// (no 4-byte UTF-8 sequence) compare as their UTF-8 bytes do, which is the same order and needs no
    /// transcoding: names are sorted for every version hashed.
    package static func precedes(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        let fast = a.withUTF8 { x in
            b.withUTF8 { y -> Bool? in
                func beyondBMP(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { bytes.contains { $0 >= 0xF0 } }
                guard !beyondBMP(x), !beyondBMP(y) else { return nil }
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                return order == 0 ? x.count < y.count : order < 0
            }
        }
        return fast ?? a.utf16.lexicographicallyPrecedes(b.utf16)
    }

    package static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// The part every property shares: its name, its flags (optional, transient; readOnly is never set from
    /// the XML) and its modifier.
    package static func propertyPart(name: String, optional: Bool, transient: Bool, modifier: String?) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(name.utf8)
        hasher.update(littleEndian(UInt16((optional ? 1 : 0) | (transient ? 2 : 0))))
        if let modifier { hasher.update(modifier.utf8) }
        return hasher.finalize()
    }

    package static func hash(of attribute: Attribute) -> [UInt8] {
        var hasher = SHA256()
        if attribute.isDerived {
            // A derived attribute hashes its expression alone, as NSExpression prints it (the XML's text).
            hasher.update((attribute.derivationExpression ?? "").utf8)
            return hasher.finalize()
        }
        hasher.update(
            propertyPart(
                name: attribute.name, optional: attribute.isOptional, transient: attribute.isTransient,
                modifier: attribute.versionHashModifier))
        hasher.update(littleEndian(typeCode(attribute.type)))
        if attribute.allowsExternalBinaryDataStorage { hasher.update([0x01]) }
        if attribute.preserveAfterDeletion { hasher.update([0x01]) }
        return hasher.finalize()
    }

    /// `owner`: the entity that declares the relationship (a relationship that is its own inverse hashes no inverse).
    package static func hash(of relationship: Relationship, declaredBy owner: String) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(
            propertyPart(
                name: relationship.name, optional: relationship.isOptional, transient: relationship.isTransient,
                modifier: relationship.versionHashModifier))
        hasher.update((relationship.destinationEntity ?? "").utf8)
        if let inverse = relationship.inverseName, !isOwnInverse(relationship, declaredBy: owner) {
            hasher.update(inverse.utf8)
        }
        // As written in the XML, 0 when absent; the low 32 bits.
        hasher.update(littleEndian(UInt32(truncatingIfNeeded: relationship.maxCount ?? 0)))
        hasher.update(littleEndian(UInt32(truncatingIfNeeded: relationship.minCount ?? 0)))
        if relationship.isOrdered { hasher.update([0x01, 0x00]) }
        return hasher.finalize()
    }

    package static func isOwnInverse(_ relationship: Relationship, declaredBy owner: String) -> Bool {
        relationship.inverseName == relationship.name && relationship.destinationEntity == owner
            && (relationship.inverseEntity == nil || relationship.inverseEntity == owner)
    }

    package static func hash(of property: Property, declaredBy owner: String) -> [UInt8] {
        switch property {
        case .attribute(let a): return hash(of: a)
        case .relationship(let r): return hash(of: r, declaredBy: owner)
        }
    }

    /// The entity's hash from its parts: the superentity's hash (nil for a root), and the hashes of its
    /// persistent effective properties in Core Data's order (by name; equal names in effective order).
    package static func entityHash(_ entity: Entity, parent: [UInt8]?, orderedPropertyHashes: [[UInt8]]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(entity.name.utf8)
        hasher.update([entity.isAbstract ? 1 : 0])
        if let parent { hasher.update(parent) }
        for hash in orderedPropertyHashes { hasher.update(hash) }
        if let modifier = entity.versionHashModifier { hasher.update(modifier.utf8) }
        for constraint in entity.uniquenessConstraints.map({ $0.properties.joined(separator: ".") }).sorted(
            by: precedes)
        {
            hasher.update(constraint.utf8)
        }
        return hasher.finalize()
    }

    /// A persistent property in an entity's hash order: its name and its hash.
    private struct Ordered {
        var name: String
        var hash: [UInt8]
    }

    /// Whether `a` comes before `b` in an entity's hash order: by name in Core Data's order; equal names are
    /// not ordered (they keep their effective order).
    private static func ordered(_ a: String, before b: String) -> Bool { a != b && precedes(a, b) }

    /// Every entity's hash in one version. Parents are hashed before their children, each including its
    /// parent's hash. An entity's ordered properties are its parent's merged with its own, not sorted again:
    /// Core Data's input still grows with the depth of a hierarchy, the work around it does not. `cache` carries
    /// hashes between the versions of a bundle, which repeat most elements: an entity it knows needs neither its
    /// properties' hashes nor their order, unless a child's list is made from its own.
    package static func hashes(of model: Model, cache: CoreDataHashCache) -> VersionHashes {
        let hierarchy = model.hierarchy
        let entities = model.entities
        func own(_ i: Int) -> [Ordered] {
            let declaring = entities[i]
            return declaring.properties.filter { !$0.isTransient }
                .map { Ordered(name: $0.name, hash: cache.propertyHash($0, declaredBy: declaring.name)) }
                .enumerated().sorted {
                    ordered($0.element.name, before: $1.element.name)
                        || (!ordered($1.element.name, before: $0.element.name) && $0.offset < $1.offset)
                }.map(\.element)
        }
        /// Ancestors' properties first among equal names: they come first in effective order.
        func merge(_ inherited: [Ordered], _ mine: [Ordered]) -> [Ordered] {
            var out: [Ordered] = []
            out.reserveCapacity(inherited.count + mine.count)
            var a = 0
            var b = 0
            while a < inherited.count || b < mine.count {
                if b == mine.count || (a < inherited.count && !ordered(mine[b].name, before: inherited[a].name)) {
                    out.append(inherited[a])
                    a += 1
                } else {
                    out.append(mine[b])
                    b += 1
                }
            }
            return out
        }
        var entityHashes = [[UInt8]?](repeating: nil, count: entities.count)
        // The ordered lists made so far, of entities whose children are not all hashed yet.
        var lists: [Int: [Ordered]] = [:]
        var remainingChildren = hierarchy.children.map { $0.filter { !hierarchy.reachesCycle[$0] }.count }
        func list(_ i: Int) -> [Ordered] {
            if let made = lists[i] { return made }
            let made = hierarchy.parent[i].map { merge(list($0), own(i)) } ?? own(i)
            if remainingChildren[i] > 0 { lists[i] = made }
            return made
        }
        func hash(_ i: Int, parent: Int?) {
            entityHashes[i] = cache.entityHash(entities[i], parent: parent.map { entityHashes[$0]! }) {
                list(i).map(\.hash)
            }
            if let parent {
                remainingChildren[parent] -= 1
                if remainingChildren[parent] == 0 { lists[parent] = nil }
            }
        }
        // Roots first, then down the tree.
        var stack = entities.indices.filter { hierarchy.parent[$0] == nil }.reversed().map { $0 }
        while let i = stack.popLast() {
            hash(i, parent: hierarchy.parent[i])
            for child in hierarchy.children[i].reversed() where !hierarchy.reachesCycle[child] { stack.append(child) }
        }
        // An entity reaching a cycle has no superentity Core Data could use: hashed as a root with its own properties.
        for i in hierarchy.cycleReaching {
            entityHashes[i] = cache.entityHash(entities[i], parent: nil) { own(i).map(\.hash) }
        }
        var byName: [String: [UInt8]] = [:]
        for i in entities.indices where model.firstIndexOfName[i] == i { byName[entities[i].name] = entityHashes[i]! }
        return VersionHashes(entities: byName)
    }
}

/// Hashes already worked out for a bundle's versions. A property's hash is kept by what goes into it, so the
/// properties of an entity that changed are found again when their own text did not. An entity's is kept by the
/// identities of the immutable field boxes (`SharedFields`) that a repeated entity shares with the version it
/// repeats: equal identity is equal content. Every box used as a key is retained here, so no identity is ever
/// reused while the cache lives.
package final class CoreDataHashCache: Sendable {
    /// Everything a property's hash is made of (`CoreDataHash.hash(of:declaredBy:)`): equal contents hash equally.
    private enum PropertyContent: Hashable {
        case derived(expression: String)
        case attribute(name: String, flags: UInt8, modifier: String, type: UInt32, external: Bool, preserve: Bool)
        case relationship(
            name: String, flags: UInt8, modifier: String, destination: String, inverse: String, maxCount: UInt32,
            minCount: UInt32, ordered: Bool)

        init(_ property: Property, declaredBy owner: String) {
            func flags(optional: Bool, transient: Bool) -> UInt8 { (optional ? 1 : 0) | (transient ? 2 : 0) }
            switch property {
            case .attribute(let a) where a.isDerived:
                self = .derived(expression: a.derivationExpression ?? "")
            case .attribute(let a):
                self = .attribute(
                    name: a.name, flags: flags(optional: a.isOptional, transient: a.isTransient),
                    modifier: a.versionHashModifier ?? "", type: CoreDataHash.typeCode(a.type),
                    external: a.allowsExternalBinaryDataStorage, preserve: a.preserveAfterDeletion)
            case .relationship(let r):
                self = .relationship(
                    name: r.name, flags: flags(optional: r.isOptional, transient: r.isTransient),
                    modifier: r.versionHashModifier ?? "", destination: r.destinationEntity ?? "",
                    inverse: CoreDataHash.isOwnInverse(r, declaredBy: owner) ? "" : r.inverseName ?? "",
                    maxCount: UInt32(truncatingIfNeeded: r.maxCount ?? 0),
                    minCount: UInt32(truncatingIfNeeded: r.minCount ?? 0), ordered: r.isOrdered)
            }
        }
    }

    private struct EntityKey: Hashable {
        var box: ObjectIdentifier
        var properties: [ObjectIdentifier]
        var parent: [UInt8]?
    }

    private struct State {
        var properties: [PropertyContent: [UInt8]] = [:]
        var entities: [EntityKey: [UInt8]] = [:]
        var retained: [any AnyObject & Sendable] = []
    }

    private let state = Locked(State())
    /// Whether entity hashes are kept (by their boxes, which are then retained for the cache's life).
    private let keepsEntities: Bool

    package init(keepsEntities: Bool = true) {
        self.keepsEntities = keepsEntities
    }

    package static func box(_ property: Property) -> any AnyObject & Sendable {
        switch property {
        case .attribute(let a): return a.fields
        case .relationship(let r): return r.fields
        }
    }

    package func propertyHash(_ property: Property, declaredBy owner: String) -> [UInt8] {
        let key = PropertyContent(property, declaredBy: owner)
        if let known = state.withLock({ $0.properties[key] }) { return known }
        let hash = CoreDataHash.hash(of: property, declaredBy: owner)
        state.withLock { $0.properties[key] = hash }
        return hash
    }

    package func entityHash(_ entity: Entity, parent: [UInt8]?, orderedPropertyHashes make: () -> [[UInt8]]) -> [UInt8]
    {
        guard keepsEntities else {
            return CoreDataHash.entityHash(entity, parent: parent, orderedPropertyHashes: make())
        }
        let boxes = entity.properties.map(Self.box)
        let key = EntityKey(
            box: ObjectIdentifier(entity.fields), properties: boxes.map(ObjectIdentifier.init), parent: parent)
        if let known = state.withLock({ $0.entities[key] }) { return known }
        let hash = CoreDataHash.entityHash(entity, parent: parent, orderedPropertyHashes: make())
        state.withLock { state in
            state.entities[key] = hash
            state.retained.append(entity.fields)
            state.retained.append(contentsOf: boxes)
        }
        return hash
    }
}
