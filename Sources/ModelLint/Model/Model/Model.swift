import ModelLintSupport

/// Facts a model read from a compiled form may not carry.
package struct UnrecordedFacts: OptionSet, Hashable, Sendable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    /// A store's cached model keeps no class names: an entity's (`NSClassNameForEntity`) nor a transformable
    /// attribute's (`NSAttributeValueClassName`) are null.
    package static let classNames = UnrecordedFacts(rawValue: 1)
    /// Validation rules compiled into predicates, not read back into Xcode's min, max and pattern.
    package static let validation = UnrecordedFacts(rawValue: 2)
}

/// One parsed model version: the entities and everything around them, with name lookups and
/// inheritance resolved once so rules never search.
package struct Model: Sendable {
    package var location: SourceLocation
    /// `<model>` header attributes (tooling metadata and flags), verbatim.
    package var header: [String: String]
    package var usedWithCloudKit: Bool
    package var entities: [Entity]
    package var configurations: [ModelConfiguration]
    package var fetchRequests: [FetchRequest]
    /// Names of model-level composite attribute definitions (Xcode 15+; format unverified).
    package var composites: [String]
    package var unknownXML: [UnknownXML]
    /// What this model cannot say because of where it was read from (a store's cached model): a diff reports no
    /// change in a fact either side does not record.
    package var unrecorded: UnrecordedFacts = []

    package let entityIndexByName: NameIndex
    /// The first entity of each effective renaming identifier: what inferred migration matches on.
    package let entityIndexByRenamingID: NameIndex
    /// The entities' keys for the fast paths (see `EntityKeys`).
    package let keys: EntityKeys
    /// Per entity: the index `entityIndexByName` gives for its name (its own, unless an earlier entity has it),
    /// and the one `entityIndexByRenamingID` gives for its renaming identifier.
    package let firstIndexOfName: [Int]
    package let firstIndexOfRenamingID: [Int]
    /// Per entity: its parent's index, when it names one of this version's entities.
    package var parentIndices: [Int?] { hierarchy.parent }
    /// Inheritance resolved once (parents, roots, children, cycles).
    package let hierarchy: Hierarchy
    package let tables: ModelTables
    /// Per entity: the entities its relationships (destination, then inverse entity) and fetched properties
    /// name, in declaration order; names of no entity left out.
    package let namedIndices: [[Int]]
    /// A hash of what decides which entities the CloudKit rules check (the model's flag and its configurations).
    package let cloudKitSettingsKey: Int

    package init(
        location: SourceLocation, header: [String: String] = [:], entities: [Entity],
        configurations: [ModelConfiguration] = [], fetchRequests: [FetchRequest] = [],
        composites: [String] = [], unknownXML: [UnknownXML] = [], entitySourceHashes: [Int?] = []
    ) {
        self.init(
            location: location, header: header, entities: entities, configurations: configurations,
            fetchRequests: fetchRequests,
            composites: composites, unknownXML: unknownXML, entitySourceHashes: entitySourceHashes,
            hashCache: CoreDataHashCache())
    }

    package init(
        location: SourceLocation, header: [String: String], entities: [Entity], configurations: [ModelConfiguration],
        fetchRequests: [FetchRequest], composites: [String], unknownXML: [UnknownXML], entitySourceHashes: [Int?],
        hashCache: CoreDataHashCache
    ) {
        tables = ModelTables(hashCache: hashCache)
        self.location = location
        self.header = header
        self.usedWithCloudKit = header["usedWithCloudKit"] == "YES"
        self.entities = entities
        self.configurations = configurations
        self.fetchRequests = fetchRequests
        self.composites = composites
        self.unknownXML = unknownXML
        var index = NameIndex(capacity: entities.count)
        var byRenamingID = NameIndex(capacity: entities.count)
        var first: [Int] = []
        var firstOfID: [Int] = []
        first.reserveCapacity(entities.count)
        firstOfID.reserveCapacity(entities.count)
        for i in entities.indices {
            first.append(index.first(entities[i].name, else: i))
            firstOfID.append(byRenamingID.first(entities[i].renamingIdentifier, else: i))
        }
        self.entityIndexByName = index
        self.entityIndexByRenamingID = byRenamingID
        self.firstIndexOfName = first
        self.firstIndexOfRenamingID = firstOfID
        let parentIndices = entities.indices.map { i in entities[i].parentEntity.flatMap { index[$0] } }
        hierarchy = Hierarchy(parent: parentIndices)
        // Per entity, per relationship: its destination's index (the lineage keys read them in order).
        var destinations: [[Int?]] = []
        destinations.reserveCapacity(entities.count)
        // Properties read in place (every entity of every version passes here): iterating them would copy each.
        namedIndices = entities.indices.map { i in
            var named: [Int] = []
            var pointedAt: [Int?] = []
            let fetchedProperties = entities[i].fields.value.fetchedProperties
            entities[i].properties.withUnsafeBufferPointer { properties in
                // Sized once: grown one relationship at a time, each array was allocated again and again.
                var relationships = 0
                for k in properties.indices { if case .relationship = properties[k] { relationships += 1 } }
                guard relationships > 0 else { return }
                pointedAt.reserveCapacity(relationships)
                named.reserveCapacity(2 * relationships + fetchedProperties.count)
                for k in properties.indices {
                    guard case .relationship(let r) = properties[k] else { continue }
                    let fields = r.fields.value
                    let d = fields.destinationEntity.flatMap { index[$0] }
                    pointedAt.append(d)
                    if let d { named.append(d) }
                    // The inverse's entity is almost always the destination: not looked up again.
                    let e =
                        fields.inverseEntity == fields.destinationEntity
                        ? d : fields.inverseEntity.flatMap { index[$0] }
                    if let e { named.append(e) }
                }
            }
            for fetched in fetchedProperties {
                if let e = fetched.fetchRequest?.entity.flatMap({ index[$0] }) { named.append(e) }
            }
            destinations.append(pointedAt)
            return named
        }
        var settings = Hasher()
        settings.combine(usedWithCloudKit)
        for configuration in configurations {
            settings.combine(configuration.name)
            settings.combine(configuration.usedWithCloudKit)
            settings.combine(configuration.members.map(\.entity))
        }
        self.cloudKitSettingsKey = settings.finalize()
        keys = EntityKeys(
            entities, firstIndexOfName: first, hierarchy: hierarchy, destinations: destinations, named: namedIndices,
            entitySourceHashes: entitySourceHashes)
    }

    /// Per entity name: its content key (`EntityKeys.content`).
    package var contentKeys: [String: Int] {
        Dictionary(uniqueKeysWithValues: zip(entityIndexByName.keys, entityIndexByName.values.map { keys.content[$0] }))
    }

    package func entity(named name: String?) -> Entity? {
        guard let name, let i = entityIndexByName[name] else { return nil }
        return entities[i]
    }

    /// The renaming identifier of the entity with this name, if there is one: `entity(named:)?.renamingIdentifier`
    /// without copying the entity (the diff asks for every parent and destination it compares).
    package func renamingIdentifier(ofEntityNamed name: String?) -> String? {
        guard let name, let i = entityIndexByName[name] else { return nil }
        return entities[i].renamingIdentifier
    }

    /// The entity and its ancestors, nearest first. Stops at a missing parent or a cycle.
    package func ancestry(of entity: Entity) -> [Entity] {
        if entity.parentEntity == nil { return [entity] }
        guard let i = index(of: entity) else { return [entity] }
        return [entity] + hierarchy.chain(from: i).dropFirst().map { entities[$0] }
    }

    /// True when following `parentEntity` from this entity comes back to an entity already visited.
    package func hasInheritanceCycle(_ entity: Entity) -> Bool {
        guard entity.parentEntity != nil, let i = index(of: entity) else { return false }
        return hierarchy.reachesCycle[i]
    }

    /// The topmost ancestor (the entity that owns the table in a SQLite store).
    package func root(of entity: Entity) -> Entity {
        guard entity.parentEntity != nil, let i = index(of: entity) else { return entity }
        return entities[hierarchy.root[i]]
    }

    /// Core Data's own entity version hashes of this version, worked out on first use.
    package var versionHashes: VersionHashes {
        tables.versionHashes { CoreDataHash.hashes(of: self, cache: tables.hashCache) }
    }

    /// Whether a store of one version opens with the other without migrating: the same entity hashes. Versions
    /// with other entity names differ without hashing anything (most pairs of a long bundle).
    package func hashesEqual(_ other: Model) -> Bool {
        hasEntityNames(of: other) && versionHashes.entities == other.versionHashes.entities
    }

    /// The same entity names (and as many entities): what equal hashes need first.
    package func hasEntityNames(of other: Model) -> Bool {
        entities.count == other.entities.count && Set(entityIndexByName.keys) == Set(other.entityIndexByName.keys)
    }

    /// Keys that `earlierDeclarations` can compare properties by.
    package enum DeclarationKey {
        case name, persistentRenamingID, renamingID

        package func callAsFunction(_ property: Property) -> String? {
            switch self {
            case .name: return property.name
            case .persistentRenamingID: return property.isTransient ? nil : property.renamingIdentifier
            case .renamingID: return property.renamingIdentifier
            }
        }

        package var table: ModelTables.Key {
            switch self {
            case .name: return .earlierByName
            case .persistentRenamingID: return .earlierByPersistentRenamingID
            case .renamingID: return .earlierByRenamingID
            }
        }
    }

    /// Chains up to this long are walked per entity; longer ones read a table worked out once for the version.
    package static let shortChain = 32

    /// The entity's own properties that have a property before them, in the entity's effective order (inherited
    /// ones first, root first), with the same key: each with its position among the own properties and that first
    /// property. Usually none.
    package func earlierDeclarations(ofEntityAt i: Int, by key: DeclarationKey) -> [(
        position: Int, first: (property: Property, owner: Int)
    )] {
        let chain = hierarchy.chain(from: i)
        guard chain.count > Self.shortChain else {
            // Owner and position by key: indices, not property copies, since most entities have no repeats.
            let total = chain.reduce(0) { $0 + entities[$1].properties.count }
            var keys = FewKeys(capacity: total)
            var firsts: [(owner: Int, position: Int)] = []
            firsts.reserveCapacity(total)
            for owner in chain.dropFirst().reversed() {
                for (q, property) in entities[owner].properties.enumerated() {
                    if let k = key(property), keys.recordFirst(k) { firsts.append((owner, q)) }
                }
            }
            var found: [(position: Int, first: (property: Property, owner: Int))] = []
            for (p, property) in entities[i].properties.enumerated() {
                guard let k = key(property) else { continue }
                if let known = keys.earlierIndex(recording: k) {
                    let first = firsts[known]
                    found.append((p, (entities[first.owner].properties[first.position], first.owner)))
                } else {
                    firsts.append((i, p))
                }
            }
            return found
        }
        let table = tables.earlierDeclarations(key.table) { hierarchy.earlierDeclarations(in: entities) { key($0) } }[i]
        return table.enumerated().compactMap { p, first in first.map { (p, $0) } }
    }

    /// Where this entity stands in `entities`: the first of its name, or (for a second entity of one name) the
    /// one at its place in the file.
    package func index(of entity: Entity) -> Int? {
        func same(_ a: SourceLocation, _ b: SourceLocation) -> Bool {
            a.line == b.line && a.column == b.column && a.file == b.file
        }
        if let i = entityIndexByName[entity.name], same(entities[i].location, entity.location) { return i }
        return entities.firstIndex { same($0.location, entity.location) && $0.name == entity.name }
    }

    /// Inherited and own properties, each with the name of the entity that declares it; ancestors' first.
    package func effectiveProperties(of entity: Entity) -> [(property: Property, declaredBy: String)] {
        if entity.parentEntity == nil { return entity.properties.map { ($0, entity.name) } }
        return ancestry(of: entity).reversed().flatMap { owner in owner.properties.map { ($0, owner.name) } }
    }

    package func effectiveProperty(named name: String, in entity: Entity) -> Property? {
        for owner in ancestry(of: entity) {
            if let p = owner.properties.first(where: { $0.name == name }) { return p }
        }
        return nil
    }

    /// The relationship named by `inverseName` on the destination entity, when both exist.
    package func inverse(of relationship: Relationship) -> Relationship? {
        guard let destination = entity(named: relationship.destinationEntity),
            let name = relationship.inverseName,
            case .relationship(let inverse)? = effectiveProperty(named: name, in: destination)
        else { return nil }
        return inverse
    }

    /// Everything an `EntityRule` may read about an entity: the entity and its ancestors, then every entity
    /// that their relationships (destination, inverse entity) and fetched properties name, each with its
    /// ancestors; each entity once, in a fixed order.
    package func neighborhood(of entity: Entity) -> [Entity] {
        guard let index = entityIndexByName[entity.name] else { return [entity] }
        return neighborhood(ofEntityAt: index).map { entities[$0] }
    }

    /// The neighborhood as indices into `entities`: indices, not copies, because every entity of every
    /// version asks for it.
    package func neighborhood(ofEntityAt index: Int) -> [Int] {
        var members: [Int] = []
        var isMember = Set<Int>()
        func add(_ start: Int) {
            var next: Int? = start
            while let i = next, isMember.insert(i).inserted {
                members.append(i)
                next = parentIndices[i]
            }
        }
        add(firstIndexOfName[index])
        let ancestry = members
        for owner in ancestry {
            for named in namedIndices[owner] { add(named) }
        }
        return members
    }

    /// Equal keys (in one run) mean an `EntityRule` finds the same about both entities: their neighborhoods
    /// hold the same content, and the CloudKit settings are the same. Each entity's key includes its parent's and
    /// the chain keys of the entities it names, not their chains again: linear however deep the hierarchy.
    package func neighborhoodKey(ofEntityAt index: Int) -> Int {
        var hasher = Hasher()
        hasher.combine(cloudKitSettingsKey)
        hasher.combine(keys.neighborhood[firstIndexOfName[index]])
        return hasher.finalize()
    }

    /// Entities whose parent chain includes `entity` (not the entity itself).
    package func descendants(of entity: Entity) -> [Entity] {
        guard let i = index(of: entity) else { return [] }
        return hierarchy.descendants(of: i).map { entities[$0] }.filter { $0.name != entity.name }
    }
}

/// An element that has User Info: an entity (`property` nil) or one of its own properties, by position.
package struct UserInfoSite: Sendable {
    package var entity: Int
    package var property: Int?
}

extension Model {
    /// Where User Info is, in declaration order: what the in-model settings (suppressions, retirements) are read
    /// from. By index, copying no entity: every property is visited, once per model (kept in its tables).
    package var userInfoSites: [UserInfoSite] {
        tables.userInfoSites {
            var sites: [UserInfoSite] = []
            for e in entities.indices {
                if !entities[e].userInfo.isEmpty { sites.append(UserInfoSite(entity: e, property: nil)) }
                for p in entities[e].properties.indices where !entities[e].properties[p].userInfo.isEmpty {
                    sites.append(UserInfoSite(entity: e, property: p))
                }
            }
            return sites
        }
    }
}
