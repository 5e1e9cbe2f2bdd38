import ModelLintModel
import ModelLintDiff

/// The guesses behind the two rename rules (rules.md "Precise semantics"). Never a pair of two elements with one
/// name: a same-named element whose identifier changed is the renaming-identifier rules' finding.
package enum RenameHeuristics {
    /// (name, kind, type) of an entity's persistent properties, as a rename keeps them.
    package static func signature(_ entity: Entity, in model: Model) -> Set<String> {
        Set(model.effectiveProperties(of: entity).map(\.property).filter { !$0.isTransient }.map { property in
            switch property {
            case .attribute(let a): return "\(a.name)|A|\(a.type.xmlValue)"
            case .relationship(let r): return "\(r.name)|R|\(r.destinationEntity ?? "")|\(r.isToMany)"
            }
        })
    }

    /// Removed and added entities whose persistent properties mostly match: at least 2 shared, and more
    /// than half of the larger side. One-to-one, best score first.
    package static func entityRenames(in diff: ModelDiff) -> [(old: Entity, new: Entity, shared: Int)] {
        var candidates: [(Entity, Entity, Int)] = []
        for old in diff.removedEntities {
            let a = signature(old, in: diff.from.model)
            for new in diff.addedEntities where new.elementID == nil && new.name != old.name {
                let b = signature(new, in: diff.to.model)
                let shared = a.intersection(b).count
                if shared >= 2 && shared * 2 > max(a.count, b.count) { candidates.append((old, new, shared)) }
            }
        }
        candidates.sort { $0.2 != $1.2 ? $0.2 > $1.2 : ($0.0.name, $0.1.name) < ($1.0.name, $1.1.name) }
        var usedOld: Set<String> = [], usedNew: Set<String> = []
        return candidates.compactMap { old, new, shared in
            guard !usedOld.contains(old.name), !usedNew.contains(new.name) else { return nil }
            usedOld.insert(old.name)
            usedNew.insert(new.name)
            return (old, new, shared)
        }
    }

    /// Within a matched entity: a removed and an added property of the same kind and type (relationships: same
    /// destination), the added one without an explicit `elementID`. One-to-one, most similar names first.
    package static func propertyRenames(in pair: EntityPair) -> [(old: Property, new: Property)] {
        func compatible(_ a: Property, _ b: Property) -> Bool {
            switch (a, b) {
            case let (.attribute(x), .attribute(y)): return x.type == y.type
            case let (.relationship(x), .relationship(y)): return x.destinationEntity == y.destinationEntity && x.isToMany == y.isToMany
            default: return false
            }
        }
        var candidates: [(Property, Property, Int)] = []
        for old in pair.removedProperties {
            for new in pair.addedProperties where new.elementID == nil && new.name != old.name && compatible(old, new) {
                candidates.append((old, new, similarity(old.name, new.name)))
            }
        }
        candidates.sort { $0.2 != $1.2 ? $0.2 > $1.2 : ($0.0.name, $0.1.name) < ($1.0.name, $1.1.name) }
        var usedOld: Set<String> = [], usedNew: Set<String> = []
        return candidates.compactMap { old, new, _ in
            guard !usedOld.contains(old.name), !usedNew.contains(new.name) else { return nil }
            usedOld.insert(old.name)
            usedNew.insert(new.name)
            return (old, new)
        }
    }

    /// Longer shared prefix plus suffix (case-insensitive) means more similar.
    package static func similarity(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased()), y = Array(b.lowercased())
        var prefix = 0
        while prefix < min(x.count, y.count) && x[prefix] == y[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(x.count, y.count) - prefix && x[x.count - 1 - suffix] == y[y.count - 1 - suffix] { suffix += 1 }
        return prefix + suffix
    }
}
