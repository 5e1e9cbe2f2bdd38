import ModelLintModel

extension ModelDiff {
    /// Each new root whose matched descendants came from more than one old root, with those old roots.
    package var hierarchyMerges: [(Entity, [String])] {
        // Without a changed parent no hierarchy can have been joined.
        guard matchedEntities.contains(where: { $0.facets.contains(.parent) }) else { return [] }
        var oldRootsByNewRoot: [String: Set<String>] = [:]
        for pair in matchedEntities {
            let newRoot = to.model.root(of: pair.new).name
            let oldRoot = from.model.root(of: pair.old).name
            oldRootsByNewRoot[newRoot, default: []].insert(oldRoot)
        }
        return to.model.entities.compactMap { entity in
            guard let roots = oldRootsByNewRoot[entity.name], roots.count > 1 else { return nil }
            return (entity, roots.sorted())
        }
    }
}
