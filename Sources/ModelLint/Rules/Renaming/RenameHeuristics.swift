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
    /// Linear in what the entities share, and in memory in the entities alone: each side's signatures are made
    /// once, shared counts come from an index of who holds each signature element, and the pairs are never listed.
    /// The greedy order (score descending, then old, then new) is walked score by score: at each score, each old
    /// entity still unpaired takes the first unpaired new one it shares that many with. 2,000 entities that all
    /// share two properties are four million pairs, which listed took 75 MB.
    package static func entityRenames(in diff: ModelDiff) -> [(old: Entity, new: Entity, shared: Int)] {
        let olds = diff.removedEntities.sorted { $0.name < $1.name }
        let news = diff.addedEntities.filter { $0.elementID == nil }.sorted { $0.name < $1.name }
        guard !olds.isEmpty, !news.isEmpty else { return [] }
        let newSignatures = news.map { signature($0, in: diff.to.model) }
        let oldSignatures = olds.map { signature($0, in: diff.from.model) }
        var holders: [String: [Int32]] = [:]
        for (index, elements) in newSignatures.enumerated() {
            for element in elements { holders[element, default: []].append(Int32(index)) }
        }
        var shared = [Int32](repeating: 0, count: news.count)
        var touched: [Int32] = []
        /// The new entities `oldIndex` shares enough with, and how many: each once, in no order.
        func candidates(of oldIndex: Int, _ body: (_ newIndex: Int, _ count: Int) -> Void) {
            let a = oldSignatures[oldIndex]
            for element in a {
                for index in holders[element] ?? [] {
                    if shared[Int(index)] == 0 { touched.append(index) }
                    shared[Int(index)] += 1
                }
            }
            for index in touched {
                let count = Int(shared[Int(index)])
                shared[Int(index)] = 0
                guard news[Int(index)].name != olds[oldIndex].name, count >= 2,
                    count * 2 > max(a.count, newSignatures[Int(index)].count)
                else { continue }
                body(Int(index), count)
            }
            touched.removeAll(keepingCapacity: true)
        }
        // Per old entity, each score it has candidates at (a few: at most its signature's size) and the first new
        // entity at that score, which is its pick there unless an earlier pick took it.
        var scores: [[(score: Int, first: Int)]] = []
        scores.reserveCapacity(olds.count)
        for oldIndex in olds.indices {
            var found: [(score: Int, first: Int)] = []
            candidates(of: oldIndex) { newIndex, count in
                if let at = found.firstIndex(where: { $0.score == count }) {
                    found[at].first = min(found[at].first, newIndex)
                } else {
                    found.append((count, newIndex))
                }
            }
            scores.append(found)
        }
        var usedOld = [Bool](repeating: false, count: olds.count)
        var usedNew = [Bool](repeating: false, count: news.count)
        var renames: [(old: Entity, new: Entity, shared: Int)] = []
        for score in Set(scores.joined().map(\.score)).sorted(by: >) {
            for oldIndex in olds.indices where !usedOld[oldIndex] {
                guard let known = scores[oldIndex].first(where: { $0.score == score }) else { continue }
                var first: Int? = usedNew[known.first] ? nil : known.first
                if first == nil {
                    candidates(of: oldIndex) { newIndex, count in
                        if count == score, !usedNew[newIndex], newIndex < first ?? Int.max { first = newIndex }
                    }
                }
                guard let newIndex = first else { continue }
                usedOld[oldIndex] = true
                usedNew[newIndex] = true
                renames.append((olds[oldIndex], news[newIndex], score))
            }
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
