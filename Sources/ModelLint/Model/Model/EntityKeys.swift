/// The keys the fast paths compare entities by, worked out once per version when the model is built. Each is a
/// 64-bit hash per entity (by index, not by name: every diff and every neighborhood reads them, and hashing a name
/// costs more than the rest of a lookup), and each has one invariant: equal keys mean that what the key covers is
/// equal (up to a hash collision). An entity that repeats an earlier one's name has that entity's keys, as every
/// lookup by name gives.
package struct EntityKeys: Sendable {
    /// Its own content, locations excluded. Equal across versions: the entity itself is unchanged.
    package let content: [Int]
    /// Its content, its ancestors' content, and the identifiers of the entities its relationships point at. Equal
    /// across versions: nothing the diff reads about the entity changed, so it can skip matching its properties.
    package let lineage: [Int]
    /// Its chain's content, its parent's neighborhood, and the chains of the entities it names
    /// (`Model.neighborhood(of:)`). Equal across versions: an entity rule finds the same about it.
    package let neighborhood: [Int]

    /// `destinations`: per entity, per relationship, its destination's index; `named`: `Model.namedIndices`.
    init(
        _ entities: [Entity], firstIndexOfName first: [Int], hierarchy: Hierarchy, destinations: [[Int?]],
        named: [[Int]], entitySourceHashes: [Int?]
    ) {
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
        // An entity's lineage key includes its parent's key, not its parent's chain again: linear however deep the
        // hierarchy. Entities that reach a cycle hash their chain as walked (an error case, reported elsewhere).
        var lineage = [Int?](repeating: nil, count: entities.count)
        func ownPart(_ e: Int, into hasher: inout Hasher) {
            hasher.combine(own[e])
            for destination in destinations[e] {
                hasher.combine(destination.map { entities[$0].renamingIdentifier } ?? "")
            }
        }
        for start in entities.indices where lineage[start] == nil {
            // Walk up to the first entity whose key is known (or the top), then fill the keys in coming down.
            var pending: [Int] = []
            var current: Int? = start
            while let i = current, lineage[i] == nil {
                if first[i] != i {
                    pending.append(i)
                    current = first[i]
                    continue
                }
                if hierarchy.reachesCycle[i] {
                    var hasher = Hasher()
                    hasher.combine(1)
                    for e in hierarchy.chain(from: i) { ownPart(e, into: &hasher) }
                    lineage[i] = hasher.finalize()
                    break
                }
                pending.append(i)
                current = hierarchy.parent[i]
            }
            for i in pending.reversed() {
                if first[i] != i {
                    lineage[i] = lineage[first[i]]
                    continue
                }
                var hasher = Hasher()
                hasher.combine(0)
                ownPart(i, into: &hasher)
                hasher.combine(hierarchy.parent[i].flatMap { lineage[$0] } ?? 0)
                lineage[i] = hasher.finalize()
            }
        }
        self.lineage = lineage.map { $0! }
        content = own
        neighborhood = Self.neighborhoodKeys(entities, first: first, own: own, hierarchy: hierarchy, named: named)
    }

    /// Chain key: an entity's name and content and its parent's chain key. Neighborhood key: the chain key, its
    /// parent's neighborhood key, and the chain keys of the entities it names. Entities reaching a cycle hash
    /// their whole neighborhood as walked.
    private static func neighborhoodKeys(
        _ entities: [Entity], first: [Int], own: [Int], hierarchy: Hierarchy, named: [[Int]]
    ) -> [Int] {
        let n = entities.count
        var chain = [Int?](repeating: nil, count: n)
        var neighborhood = [Int?](repeating: nil, count: n)
        func walkedKey(_ i: Int) -> Int {
            var hasher = Hasher()
            hasher.combine(2)
            var seen = Set<Int>()
            for owner in hierarchy.chain(from: i) {
                for member in [owner] + named[owner] {
                    for m in hierarchy.chain(from: member) where seen.insert(m).inserted {
                        hasher.combine(entities[m].name)
                        hasher.combine(own[m])
                    }
                }
            }
            return hasher.finalize()
        }
        // Parents before children: the order of a walk from the roots; cycle-reaching entities apart.
        var order: [Int] = []
        var stack = (0..<n).filter { hierarchy.parent[$0] == nil }.reversed().map { $0 }
        while let i = stack.popLast() {
            order.append(i)
            for child in hierarchy.children[i].reversed() where !hierarchy.reachesCycle[child] { stack.append(child) }
        }
        for i in order {
            var hasher = Hasher()
            hasher.combine(entities[i].name)
            hasher.combine(own[i])
            hasher.combine(hierarchy.parent[i].flatMap { chain[$0] } ?? 0)
            chain[i] = hasher.finalize()
        }
        for i in hierarchy.cycleReaching { chain[i] = walkedKey(i) }
        for i in order {
            var hasher = Hasher()
            hasher.combine(chain[i]!)
            hasher.combine(hierarchy.parent[i].flatMap { neighborhood[$0] } ?? 0)
            for m in named[i] { hasher.combine(chain[m]!) }
            neighborhood[i] = hasher.finalize()
        }
        for i in hierarchy.cycleReaching { neighborhood[i] = walkedKey(i) }
        return neighborhood.map { $0! }
    }
}
