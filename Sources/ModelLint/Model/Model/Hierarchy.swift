import Foundation
import ModelLintSupport

/// One version's inheritance, resolved once, by entity index. Invariant: every answer equals what following
/// `parentEntity` by name from the entity gives (the first entity of the parent's name, stopping at a missing
/// parent or at an entity already visited), computed in time linear in the number of entities however deep the
/// chains are (a hostile model may hold 10,000 levels).
package struct Hierarchy: Sendable {
    /// The parent's index (the first entity of the parent's name), when the parent exists.
    package let parent: [Int?]
    /// Whether following parents from the entity comes back to an entity already visited.
    package let reachesCycle: [Bool]
    /// The topmost ancestor: the entity that owns the table in a store (itself when it has no parent; for an
    /// entity reaching a cycle, the last entity before the walk returns).
    package let root: [Int]
    /// Entities whose parent is this one, in entity order.
    package let children: [[Int]]
    /// Entities that no walk from a root reaches (they reach a cycle), in entity order.
    package let cycleReaching: [Int]

    package init(parent: [Int?]) {
        self.parent = parent
        let n = parent.count
        // A functional graph (one parent each): colour walks to find which entities reach a cycle.
        var state = [UInt8](repeating: 0, count: n)  // 0 new, 1 on the current walk, 2 done
        var cycle = [Bool](repeating: false, count: n)
        // One walk's entities; kept between walks, as most walks are a single entity.
        var path: [Int] = []
        for start in 0..<n where state[start] == 0 {
            path.removeAll(keepingCapacity: true)
            var current: Int? = start
            while let i = current, state[i] == 0 {
                state[i] = 1
                path.append(i)
                current = parent[i]
            }
            // The walk ended at a missing parent, a finished entity, or one on this walk (a cycle).
            let endsInCycle: Bool
            if let i = current { endsInCycle = state[i] == 1 || cycle[i] } else { endsInCycle = false }
            for i in path {
                state[i] = 2
                cycle[i] = endsInCycle
            }
        }
        reachesCycle = cycle
        var children = [[Int]](repeating: [], count: n)
        for i in 0..<n { if let p = parent[i] { children[p].append(i) } }
        self.children = children
        var root = Array(0..<n)
        // Roots first, then down: each entity's root is its parent's.
        var stack = (0..<n).filter { parent[$0] == nil }.reversed().map { $0 }
        while let i = stack.popLast() {
            for child in children[i] where !cycle[child] {
                root[child] = root[i]
                stack.append(child)
            }
        }
        var reaching: [Int] = []
        for i in 0..<n where cycle[i] {
            reaching.append(i)
            var seen: Set<Int> = [i]
            var last = i
            var current = parent[i]
            while let c = current, seen.insert(c).inserted {
                last = c
                current = parent[c]
            }
            root[i] = last
        }
        self.root = root
        cycleReaching = reaching
    }

    /// The entity and its ancestors, nearest first (`Model.ancestry(of:)`'s order and stopping rule).
    package func chain(from index: Int) -> [Int] {
        var chain = [index]
        if reachesCycle[index] {
            var seen: Set<Int> = [index]
            var current = parent[index]
            while let c = current, seen.insert(c).inserted {
                chain.append(c)
                current = parent[c]
            }
        } else {
            var current = parent[index]
            while let c = current {
                chain.append(c)
                current = parent[c]
            }
        }
        return chain
    }

    /// Every entity below this one (not itself), in depth-first order.
    package func descendants(of index: Int) -> [Int] {
        var found: [Int] = []
        var stack = children[index].reversed().map { $0 }
        var seen: Set<Int> = [index]
        while let i = stack.popLast() {
            guard seen.insert(i).inserted else { continue }
            found.append(i)
            stack.append(contentsOf: children[i].reversed())
        }
        return found
    }

    /// For every entity's own properties (in declaration order), the first property before it, in the entity's
    /// effective order (ancestors' properties first, root first; then its own), whose key is the same; nil where
    /// there is none or the property has no key. What a per-entity walk of the inherited properties finds, in one
    /// pass down the inheritance tree with the keys seen on the way (undone on the way back up).
    package func earlierDeclarations(in entities: [Entity], key: (Property) -> String?) -> [[(
        property: Property, owner: Int
    )?]] {
        var result = entities.map { [(property: Property, owner: Int)?](repeating: nil, count: $0.properties.count) }
        var seen: [String: (property: Property, owner: Int)] = [:]
        func declare(_ i: Int, undo: inout [String]) {
            for (p, property) in entities[i].properties.enumerated() {
                guard let k = key(property) else { continue }
                if let first = seen[k] {
                    result[i][p] = first
                } else {
                    seen[k] = (property, i)
                    undo.append(k)
                }
            }
        }
        // Iterative depth-first walk: entering declares, leaving forgets.
        enum Step {
            case enter(Int)
            case leave([String])
        }
        for rootIndex in entities.indices where parent[rootIndex] == nil {
            var steps: [Step] = [.enter(rootIndex)]
            while let step = steps.popLast() {
                switch step {
                case .enter(let i):
                    var undo: [String] = []
                    declare(i, undo: &undo)
                    steps.append(.leave(undo))
                    for child in children[i].reversed() where !reachesCycle[child] { steps.append(.enter(child)) }
                case .leave(let keys):
                    for k in keys { seen[k] = nil }
                }
            }
        }
        // Entities that reach a cycle are on no walk from a root: each walks its own chain (an error case).
        for i in cycleReaching {
            seen.removeAll()
            var ignored: [String] = []
            for owner in chain(from: i).dropFirst().reversed() {
                for property in entities[owner].properties {
                    if let k = key(property), seen[k] == nil { seen[k] = (property, owner) }
                }
            }
            declare(i, undo: &ignored)
        }
        return result
    }
}

/// Tables worked out from a version on first use and kept with it: what rules read many times.
package final class ModelTables: Sendable {
    package enum Key: Hashable, Sendable { case earlierByName, earlierByPersistentRenamingID, earlierByRenamingID }
    private let earlier = Locked([Key: [[(property: Property, owner: Int)?]]]())
    private let hashes = Locked<VersionHashes?>(nil)
    private let userInfo = Locked<[UserInfoSite]?>(nil)
    /// Shared by the versions of one bundle (the parse cache hands it out).
    package let hashCache: CoreDataHashCache

    package init(hashCache: CoreDataHashCache = CoreDataHashCache()) { self.hashCache = hashCache }

    package func versionHashes(_ make: () -> VersionHashes) -> VersionHashes {
        // Made under the lock: two threads asking at once make it once.
        hashes.withLock { hashes in
            if let hashes { return hashes }
            let made = make()
            hashes = made
            return made
        }
    }

    package func userInfoSites(_ make: () -> [UserInfoSite]) -> [UserInfoSite] {
        userInfo.withLock { sites in
            if let sites { return sites }
            let made = make()
            sites = made
            return made
        }
    }

    package func earlierDeclarations(_ key: Key, _ make: () -> [[(property: Property, owner: Int)?]]) -> [[(
        property: Property, owner: Int
    )?]] {
        earlier.withLock { earlier in
            if let known = earlier[key] { return known }
            let made = make()
            earlier[key] = made
            return made
        }
    }
}
