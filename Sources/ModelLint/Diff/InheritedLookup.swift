import ModelLintModel

/// Answers, for many (entity, key) questions about one version at once, "which property is the first with
/// this key in the entity's effective order (its ancestors' properties first, root first, then its own)?".
/// Invariant: the answer equals a walk of `Model.effectiveProperties(of:)`; the work is one pass down the union
/// of the asking entities' parent chains (a scoped table of keys seen from the root), not a walk per question,
/// so a diff of a 10,000-level hierarchy stays linear.
package struct InheritedLookup {
    package typealias Declaration = (property: Property, owner: Int)

    /// `questions[entity]`: the keys asked about at that entity. Returns the answers by entity, then key.
    package static func first(
        in model: Model, key: (Property) -> String?, questions: [Int: Set<String>]
    ) -> [Int: [String: Declaration]] {
        guard !questions.isEmpty else { return [:] }
        let hierarchy = model.hierarchy
        var answers: [Int: [String: Declaration]] = [:]
        func answer(_ i: Int, from table: [String: Declaration]) {
            guard let asked = questions[i] else { return }
            var found: [String: Declaration] = [:]
            for k in asked { if let d = table[k] { found[k] = d } }
            answers[i] = found
        }
        // The entities on the asking entities' chains (walked up once each, stopping where another walk was).
        var needed = Set<Int>()
        var cyclic: [Int] = []
        for start in questions.keys {
            if hierarchy.reachesCycle[start] {
                cyclic.append(start)
                continue
            }
            var current: Int? = start
            while let i = current, needed.insert(i).inserted { current = hierarchy.parent[i] }
        }
        var table: [String: Declaration] = [:]
        enum Step {
            case enter(Int)
            case leave([String])
        }
        for root in needed.sorted() where hierarchy.parent[root] == nil {
            var steps: [Step] = [.enter(root)]
            while let step = steps.popLast() {
                switch step {
                case .enter(let i):
                    var added: [String] = []
                    for property in model.entities[i].properties {
                        guard let k = key(property), table[k] == nil else { continue }
                        table[k] = (property, i)
                        added.append(k)
                    }
                    answer(i, from: table)
                    steps.append(.leave(added))
                    for child in hierarchy.children[i].reversed() where needed.contains(child) {
                        steps.append(.enter(child))
                    }
                case .leave(let keys):
                    for k in keys { table[k] = nil }
                }
            }
        }
        // An entity reaching a cycle is on no walk from a root: its own chain, walked (an error case).
        for i in cyclic {
            var own: [String: Declaration] = [:]
            for owner in hierarchy.chain(from: i).reversed() {
                for property in model.entities[owner].properties {
                    if let k = key(property), own[k] == nil { own[k] = (property, owner) }
                }
            }
            answer(i, from: own)
        }
        return answers
    }
    package init() {
    }
}
