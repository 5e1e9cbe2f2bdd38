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
    /// The first entity of each effective renaming identifier: what inferred migration matches on.
    public let entityIndexByRenamingID: [String: Int]
    /// Per entity: a hash of its own content, locations excluded, and of its lineage: that and its ancestors'
    /// content, and the identifiers of the entities its relationships point at. Equal lineage keys across
    /// versions mean nothing about the entity changed, so the diff can skip matching its properties. Both are
    /// the keys of the first entity of the same name, as every lookup by name gives. By index, not by name:
    /// every diff and every neighborhood reads them, and hashing a name costs more than the rest of a lookup.
    let contentKeyAt: [Int]
    let lineageKeyAt: [Int]
    /// Per entity: the index `entityIndexByName` gives for its name (its own, unless an earlier entity has it),
    /// and the one `entityIndexByRenamingID` gives for its renaming identifier.
    let firstIndexOfName: [Int]
    let firstIndexOfRenamingID: [Int]
    /// Per entity: its parent's index, when it names one of this version's entities.
    let parentIndices: [Int?]
    /// Per entity: the entities its relationships (destination, then inverse entity) and fetched properties
    /// name, in declaration order; names of no entity left out.
    let namedIndices: [[Int]]
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
        var index: [String: Int] = [:], byRenamingID: [String: Int] = [:]
        index.reserveCapacity(entities.count)
        byRenamingID.reserveCapacity(entities.count)
        var first: [Int] = [], firstOfID: [Int] = []
        first.reserveCapacity(entities.count)
        firstOfID.reserveCapacity(entities.count)
        for i in entities.indices {
            first.append(index[entities[i].name, default: i])
            if first[i] == i { index[entities[i].name] = i }
            let id = entities[i].renamingIdentifier
            firstOfID.append(byRenamingID[id, default: i])
            if firstOfID[i] == i { byRenamingID[id] = i }
        }
        self.entityIndexByName = index
        self.entityIndexByRenamingID = byRenamingID
        self.firstIndexOfName = first
        self.firstIndexOfRenamingID = firstOfID
        parentIndices = entities.indices.map { i in entities[i].parentEntity.flatMap { index[$0] } }
        // Per entity, per relationship: its destination's index (the lineage keys read them in order).
        var destinations: [[Int?]] = []
        destinations.reserveCapacity(entities.count)
        namedIndices = entities.indices.map { i in
            var named: [Int] = []
            var pointedAt: [Int?] = []
            for property in entities[i].properties {
                guard case .relationship(let r) = property else { continue }
                let d = r.destinationEntity.flatMap { index[$0] }
                pointedAt.append(d)
                if let d { named.append(d) }
                if let e = r.inverseEntity.flatMap({ index[$0] }) { named.append(e) }
            }
            for fetched in entities[i].fetchedProperties {
                if let e = fetched.fetchRequest?.entity.flatMap({ index[$0] }) { named.append(e) }
            }
            destinations.append(pointedAt)
            return named
        }
        // An entity's own content: the hash of its source text when the parser has it (the same text is the
        // same content, and hashing bytes costs far less than hashing the values built from them).
        var own: [Int] = []
        own.reserveCapacity(entities.count)
        for i in entities.indices {
            if first[i] != i {
                own.append(own[first[i]])
            } else if i < entitySourceHashes.count, let hash = entitySourceHashes[i] {
                own.append(hash)
            } else {
                var hasher = Hasher()
                hasher.combine(entities[i].withoutLocations)
                own.append(hasher.finalize())
            }
        }
        self.contentKeyAt = own
        var settings = Hasher()
        settings.combine(usedWithCloudKit)
        for configuration in configurations {
            settings.combine(configuration.name)
            settings.combine(configuration.usedWithCloudKit)
            settings.combine(configuration.members.map(\.entity))
        }
        self.cloudKitSettingsKey = settings.finalize()
        var lineage: [Int] = []
        lineage.reserveCapacity(entities.count)
        for i in entities.indices {
            if first[i] != i { lineage.append(lineage[first[i]]); continue }
            var hasher = Hasher()
            var chain: [Int] = []
            var current: Int? = i
            while let e = current, !chain.contains(e) {
                chain.append(e)
                hasher.combine(own[e])
                for destination in destinations[e] {
                    hasher.combine(destination.map { entities[$0].renamingIdentifier } ?? "")
                }
                current = parentIndices[e]
            }
            lineage.append(hasher.finalize())
        }
        self.lineageKeyAt = lineage
    }

    /// Per entity name: `contentKeyAt`'s key.
    public var contentKeys: [String: Int] { entityIndexByName.mapValues { contentKeyAt[$0] } }

    public func entity(named name: String?) -> Entity? {
        guard let name, let i = entityIndexByName[name] else { return nil }
        return entities[i]
    }

    /// The entity and its ancestors, nearest first. Stops at a missing parent or a cycle.
    public func ancestry(of entity: Entity) -> [Entity] {
        var chain = [entity]
        if entity.parentEntity == nil { return chain }
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
        func add(_ start: Int) {
            var next: Int? = start
            while let i = next, !members.contains(i) {
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
    /// hold the same content, and the CloudKit settings are the same.
    func neighborhoodKey(ofEntityAt index: Int) -> Int {
        var hasher = Hasher()
        hasher.combine(cloudKitSettingsKey)
        for member in neighborhood(ofEntityAt: index) {
            hasher.combine(entities[member].name)
            hasher.combine(contentKeyAt[member])
        }
        return hasher.finalize()
    }

    /// Entities whose parent chain includes `entity` (not the entity itself).
    public func descendants(of entity: Entity) -> [Entity] {
        entities.filter { $0.name != entity.name && ancestry(of: $0).dropFirst().contains { $0.name == entity.name } }
    }
}
