/// One parsed model version: the entities and everything around them, with name lookups and
/// inheritance resolved once so rules never search.
public struct Model: Sendable {
    public var location: SourceLocation
    /// `<model>` header attributes (tooling metadata and flags), verbatim.
    public var header: [String: String]
    public var usedWithCloudKit: Bool
    public var entities: [Entity]
    public var configurations: [ModelConfiguration]
    public var fetchRequests: [FetchRequest]
    /// Names of model-level composite attribute definitions (Xcode 15+; format unverified).
    public var composites: [String]
    public var unknownXML: [UnknownXML]

    public let entityIndexByName: [String: Int]
    /// Per entity: a hash of everything it and its ancestors hold, and the identifiers of the entities its
    /// relationships point at; locations excluded. Equal keys across versions mean nothing about the entity
    /// changed, so the diff can skip matching its properties.
    public let lineageKeys: [String: Int]
    /// Per entity: a hash of its own content, locations excluded.
    public let contentKeys: [String: Int]
    /// A hash of what decides which entities the CloudKit rules check (the model's flag and its configurations).
    public let cloudKitSettingsKey: Int

    public init(
        location: SourceLocation, header: [String: String] = [:], entities: [Entity],
        configurations: [ModelConfiguration] = [], fetchRequests: [FetchRequest] = [],
        composites: [String] = [], unknownXML: [UnknownXML] = [], entitySourceHashes: [Int?] = []
    ) {
        self.location = location
        self.header = header
        self.usedWithCloudKit = header["usedWithCloudKit"] == "YES"
        self.entities = entities
        self.configurations = configurations
        self.fetchRequests = fetchRequests
        self.composites = composites
        self.unknownXML = unknownXML
        var index: [String: Int] = [:]
        for (i, entity) in entities.enumerated() where index[entity.name] == nil {
            index[entity.name] = i
        }
        self.entityIndexByName = index
        // An entity's own content: the hash of its source text when the parser has it (the same text is the
        // same content, and hashing bytes costs far less than hashing the values built from them).
        var own: [String: Int] = [:]
        for (i, entity) in entities.enumerated() where own[entity.name] == nil {
            if i < entitySourceHashes.count, let hash = entitySourceHashes[i] {
                own[entity.name] = hash
            } else {
                var hasher = Hasher()
                hasher.combine(entity.withoutLocations)
                own[entity.name] = hasher.finalize()
            }
        }
        self.contentKeys = own
        var settings = Hasher()
        settings.combine(usedWithCloudKit)
        for configuration in configurations {
            settings.combine(configuration.name)
            settings.combine(configuration.usedWithCloudKit)
            settings.combine(configuration.members.map(\.entity))
        }
        self.cloudKitSettingsKey = settings.finalize()
        var lineage: [String: Int] = [:]
        for entity in entities where lineage[entity.name] == nil {
            var hasher = Hasher()
            var seen: Set<String> = []
            var current: Entity? = entity
            while let e = current, seen.insert(e.name).inserted {
                hasher.combine(own[e.name] ?? 0)
                for case .relationship(let r) in e.properties {
                    hasher.combine(r.destinationEntity.flatMap { index[$0] }.map { entities[$0].renamingIdentifier } ?? "")
                }
                current = e.parentEntity.flatMap { index[$0] }.map { entities[$0] }
            }
            lineage[entity.name] = hasher.finalize()
        }
        self.lineageKeys = lineage
    }

    public func entity(named name: String?) -> Entity? {
        guard let name, let i = entityIndexByName[name] else { return nil }
        return entities[i]
    }

    /// The entity and its ancestors, nearest first. Stops at a missing parent or a cycle.
    public func ancestry(of entity: Entity) -> [Entity] {
        var chain = [entity]
        var seen: Set<String> = [entity.name]
        var current = entity
        while let parent = self.entity(named: current.parentEntity), !seen.contains(parent.name) {
            chain.append(parent)
            seen.insert(parent.name)
            current = parent
        }
        return chain
    }

    /// True when following `parentEntity` from this entity comes back to an entity already visited.
    public func hasInheritanceCycle(_ entity: Entity) -> Bool {
        var seen: Set<String> = [entity.name]
        var current = entity
        while let parent = self.entity(named: current.parentEntity) {
            if seen.contains(parent.name) { return true }
            seen.insert(parent.name)
            current = parent
        }
        return false
    }

    /// The topmost ancestor (the entity that owns the table in a SQLite store).
    public func root(of entity: Entity) -> Entity { ancestry(of: entity).last ?? entity }

    /// Inherited and own properties, each with the name of the entity that declares it; ancestors' first.
    public func effectiveProperties(of entity: Entity) -> [(property: Property, declaredBy: String)] {
        if entity.parentEntity == nil { return entity.properties.map { ($0, entity.name) } }
        return ancestry(of: entity).reversed().flatMap { owner in owner.properties.map { ($0, owner.name) } }
    }

    public func effectiveProperty(named name: String, in entity: Entity) -> Property? {
        for owner in ancestry(of: entity) {
            if let p = owner.properties.first(where: { $0.name == name }) { return p }
        }
        return nil
    }

    /// The relationship named by `inverseName` on the destination entity, when both exist.
    public func inverse(of relationship: Relationship) -> Relationship? {
        guard let destination = entity(named: relationship.destinationEntity),
              let name = relationship.inverseName,
              case .relationship(let inverse)? = effectiveProperty(named: name, in: destination)
        else { return nil }
        return inverse
    }

    /// Everything an `EntityRule` may read about an entity: the entity and its ancestors, then every entity
    /// that their relationships (destination, inverse entity) and fetched properties name, each with its
    /// ancestors; each entity once, in a fixed order.
    public func neighborhood(of entity: Entity) -> [Entity] {
        guard let index = entityIndexByName[entity.name] else { return [entity] }
        return neighborhood(ofEntityAt: index).map { entities[$0] }
    }

    /// The neighborhood as indices into `entities`: indices, not copies, because every entity of every
    /// version asks for it.
    func neighborhood(ofEntityAt index: Int) -> [Int] {
        var members: [Int] = []
        func add(_ name: String?) {
            var next = name.flatMap { entityIndexByName[$0] }
            while let i = next, !members.contains(i) {
                members.append(i)
                next = entities[i].parentEntity.flatMap { entityIndexByName[$0] }
            }
        }
        add(entities[index].name)
        let ancestry = members
        for owner in ancestry {
            for case .relationship(let r) in entities[owner].properties {
                add(r.destinationEntity)
                add(r.inverseEntity)
            }
            for fetched in entities[owner].fetchedProperties { add(fetched.fetchRequest?.entity) }
        }
        return members
    }

    /// Equal keys (in one run) mean an `EntityRule` finds the same about both entities: their neighborhoods
    /// hold the same content, and the CloudKit settings are the same.
    func neighborhoodKey(ofEntityAt index: Int) -> Int {
        var hasher = Hasher()
        hasher.combine(cloudKitSettingsKey)
        for member in neighborhood(ofEntityAt: index) {
            hasher.combine(entities[member].name)
            hasher.combine(contentKeys[entities[member].name])
        }
        return hasher.finalize()
    }

    /// Entities whose parent chain includes `entity` (not the entity itself).
    public func descendants(of entity: Entity) -> [Entity] {
        entities.filter { $0.name != entity.name && ancestry(of: $0).dropFirst().contains { $0.name == entity.name } }
    }
}
