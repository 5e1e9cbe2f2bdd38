import ModelLintModel
import ModelLintDiff

/// The guesses behind the two rename rules (docs/cli.md "Which findings count"). Never a pair of two elements with one
/// name: a same-named element whose identifier changed is the renaming-identifier rules' finding.
package enum RenameHeuristics {
    /// (name, kind, type) of an entity's persistent properties, as a rename keeps them.
    package static func signature(_ entity: Entity, in model: Model) -> Set<String> {
        Set(
            model.effectiveProperties(of: entity).map(\.property).filter { !$0.isTransient }.map { property in
                switch property {
                case .attribute(let a): return "\(a.name)|A|\(a.type.xmlValue)"
                case .relationship(let r): return "\(r.name)|R|\(r.destinationEntity ?? "")|\(r.isToMany)"
                }
            })
    }

    /// Removed and added entities whose persistent properties mostly match: at least 2 shared, and more
    /// than half of the larger side. One-to-one, best score first (ties by old name, then new name).
    /// Linear in what the entities share: each side's signatures are made once, shared counts come from an
    /// index of who holds each signature element, and the greedy pass sorts plain integers.
    package static func entityRenames(in diff: ModelDiff) -> [(old: Entity, new: Entity, shared: Int)] {
        let olds = diff.removedEntities.sorted { $0.name < $1.name }
        let news = diff.addedEntities.filter { $0.elementID == nil }.sorted { $0.name < $1.name }
        // Positions are packed in 21 bits each: no model holds two million entities.
        guard !olds.isEmpty, !news.isEmpty, olds.count <= 0x1F_FFFF, news.count <= 0x1F_FFFF else { return [] }
        let newSignatures = news.map { signature($0, in: diff.to.model) }
        var holders: [String: [Int32]] = [:]
        for (index, elements) in newSignatures.enumerated() {
            for element in elements { holders[element, default: []].append(Int32(index)) }
        }
        // Score (descending), then old and new position in name order: one integer each, sorted once.
        var candidates: [UInt64] = []
        var shared = [Int32](repeating: 0, count: news.count)
        var touched: [Int32] = []
        for (oldIndex, old) in olds.enumerated() {
            let a = signature(old, in: diff.from.model)
            for element in a {
                for index in holders[element] ?? [] {
                    if shared[Int(index)] == 0 { touched.append(index) }
                    shared[Int(index)] += 1
                }
            }
            for index in touched {
                let count = Int(shared[Int(index)])
                shared[Int(index)] = 0
                let new = news[Int(index)]
                guard new.name != old.name, count >= 2, count * 2 > max(a.count, newSignatures[Int(index)].count) else {
                    continue
                }
                candidates.append(
                    UInt64(0x3F_FFFF - min(count, 0x3F_FFFF)) << 42 | UInt64(oldIndex) << 21 | UInt64(index))
            }
            touched.removeAll(keepingCapacity: true)
        }
        candidates.sort()
        var usedOld = [Bool](repeating: false, count: olds.count)
        var usedNew = [Bool](repeating: false, count: news.count)
        var renames: [(old: Entity, new: Entity, shared: Int)] = []
        for key in candidates {
            let oldIndex = Int(key >> 21 & 0x1F_FFFF)
            let newIndex = Int(key & 0x1F_FFFF)
            guard !usedOld[oldIndex], !usedNew[newIndex] else { continue }
            usedOld[oldIndex] = true
            usedNew[newIndex] = true
            renames.append((olds[oldIndex], news[newIndex], 0x3F_FFFF - Int(key >> 42)))
        }
        return renames
    }

    /// Within a matched entity: a removed and an added property of the same kind and type (relationships: same
    /// destination), the added one without an explicit `elementID`. One-to-one, most similar names first.
    package static func propertyRenames(in pair: EntityPair) -> [(old: Property, new: Property)] {
        func compatible(_ a: Property, _ b: Property) -> Bool {
            switch (a, b) {
            case (.attribute(let x), .attribute(let y)): return x.type == y.type
            case (.relationship(let x), .relationship(let y)):
                return x.destinationEntity == y.destinationEntity && x.isToMany == y.isToMany
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
        var usedOld: Set<String> = []
        var usedNew: Set<String> = []
        return candidates.compactMap { old, new, _ in
            guard !usedOld.contains(old.name), !usedNew.contains(new.name) else { return nil }
            usedOld.insert(old.name)
            usedNew.insert(new.name)
            return (old, new)
        }
    }

    /// Longer shared prefix plus suffix (case-insensitive) means more similar; names equal but for case are the
    /// most similar of all (a case-only rename).
    package static func similarity(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased())
        let y = Array(b.lowercased())
        if x == y { return Int.max / 2 }
        var prefix = 0
        while prefix < min(x.count, y.count) && x[prefix] == y[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(x.count, y.count) - prefix && x[x.count - 1 - suffix] == y[y.count - 1 - suffix] {
            suffix += 1
        }
        return prefix + suffix
    }
}
