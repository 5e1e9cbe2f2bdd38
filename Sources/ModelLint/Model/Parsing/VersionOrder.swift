import Foundation

/// The order versions were created in, as far as names tell: names without any digit first (the base
/// version), then natural order — case-insensitive text, digit runs compared as numbers.
package enum VersionOrder {
    /// The next name in the pattern of `name` (`Near 20` -> `Near 21`, `Model9` -> `Model10`, `Model` -> `Model 2`),
    /// or nil when the pattern is ambiguous (`v1.10`) or the number cannot grow (`Near 9223372036854775807`).
    package static func nextName(after name: String) -> String? {
        let digits = name.reversed().prefix { $0.isASCIIDigit }
        guard !digits.isEmpty else { return name + " 2" }
        let stem = name.dropLast(digits.count)
        if stem.hasSuffix(".") || stem.hasSuffix("-") || stem.hasSuffix("_") { return nil }
        guard let number = Int(String(digits.reversed())) else { return nil }
        let (next, overflow) = number.addingReportingOverflow(1)
        return overflow ? nil : stem + String(next)
    }

    package static func sorted(_ names: [String], explicit: [String]? = nil) -> [String] {
        // Each name's key once, not once per comparison (a bundle of 117 versions takes ~700 comparisons).
        let keyed = names.map {
            (name: $0, hasDigit: $0.contains(where: \.isASCIIDigit), scalars: Array($0.lowercased().unicodeScalars))
        }
        let natural = keyed.sorted { a, b in
            if a.hasDigit != b.hasDigit { return !a.hasDigit }
            let order = naturalCompare(a.scalars, b.scalars)
            return order == 0 ? a.name < b.name : order < 0
        }.map(\.name)
        guard let explicit, !explicit.isEmpty else { return natural }
        // Listed versions in the configured order; versions the list does not name follow in natural order,
        // so adding a version never breaks a configured bundle.
        let present = Set(names)
        let listed = explicit.filter { present.contains($0) }
        let listedSet = Set(listed)
        return listed + natural.filter { !listedSet.contains($0) }
    }

    /// The names in an order already decided elsewhere (the work tree's, for the same bundle at a revision):
    /// names the decision knows keep its order; each other name (a version since deleted, say) stands right after
    /// the known name that precedes it in natural order, or first when none does.
    package static func sorted(_ names: [String], following decided: [String]) -> [String] {
        let present = Set(names)
        var seen = Set<String>()
        let known = decided.filter { present.contains($0) && seen.insert($0).inserted }
        guard known.count < present.count else { return known }
        var front: [String] = []
        var after: [String: [String]] = [:]
        var lastKnown: String?
        for name in sorted(names) {
            if seen.contains(name) {
                lastKnown = name
            } else if let anchor = lastKnown {
                after[anchor, default: []].append(name)
            } else {
                front.append(name)
            }
        }
        return front + known.flatMap { [$0] + (after[$0] ?? []) }
    }

    package static func precedes(_ a: String, _ b: String) -> Bool {
        let aHasDigit = a.contains(where: \.isASCIIDigit)
        let bHasDigit = b.contains(where: \.isASCIIDigit)
        if aHasDigit != bHasDigit { return !aHasDigit }
        let order = naturalCompare(a, b)
        return order == 0 ? a < b : order < 0
    }

    /// -1, 0, 1. Digit runs compare by value (leading zeros ignored), the rest case-insensitively.
    package static func naturalCompare(_ a: String, _ b: String) -> Int {
        naturalCompare(Array(a.lowercased().unicodeScalars), Array(b.lowercased().unicodeScalars))
    }

    package static func naturalCompare(_ x: [Unicode.Scalar], _ y: [Unicode.Scalar]) -> Int {
        var i = 0
        var j = 0
        while i < x.count && j < y.count {
            if x[i].isDigit && y[j].isDigit {
                var i2 = i
                var j2 = j
                while i2 < x.count && x[i2].isDigit { i2 += 1 }
                while j2 < y.count && y[j2].isDigit { j2 += 1 }
                // Leading zeros aside, a longer run is a larger number; equal lengths compare digit by digit.
                let u = x[i..<i2].drop { $0 == "0" }
                let v = y[j..<j2].drop { $0 == "0" }
                if u.count != v.count { return u.count < v.count ? -1 : 1 }
                for (p, q) in zip(u, v) where p != q { return p.value < q.value ? -1 : 1 }
                i = i2
                j = j2
            } else {
                if x[i] != y[j] { return x[i].value < y[j].value ? -1 : 1 }
                i += 1
                j += 1
            }
        }
        if i < x.count { return 1 }
        if j < y.count { return -1 }
        return 0
    }
}

extension Character {
    package var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension Unicode.Scalar {
    package var isDigit: Bool { value >= 48 && value <= 57 }
}

/// Version order when the names have several stems (docs/cli.md "Which findings count"): versions renamed between
/// releases (`Journal 2`…`Journal 5` then `Notebook v1.4`…; `UserDataModel` then `MultiassetUserDataModel2`…).
/// Within a stem, natural order; across stems, evidence, strongest first: a mapping model's source precedes its
/// destination; the current version comes last; what `.xccurrentversion` named over time, and when git first
/// added each version. Stems are presumed to follow one another as blocks where nothing says otherwise.
package enum VersionOrderEvidence {
    package enum Verdict: Equatable, Sendable {
        /// The evidence settled it: the stems in the order used, and what settled each.
        case inferred(stems: [String], reasons: [String])
        /// It conflicts or leaves stems unordered: the order used anyway, and why it is doubtful.
        case ambiguous(stems: [String], reason: String)
    }

    /// The text before the first run of digits, trimmed, compared case-insensitively (nil for a name without digits).
    package static func rawStem(_ name: String) -> String? {
        // An ASCII name (every version name Xcode writes) byte by byte: its characters are its bytes, and its
        // whitespace is space and tab. Foundation's trimming costs microseconds a name, and a bundle's names are
        // stemmed together. Any other name as characters.
        let utf8 = name.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            guard let firstDigit = name.firstIndex(where: \.isASCIIDigit) else { return nil }
            return name[..<firstDigit].trimmingCharacters(in: .whitespaces).lowercased()
        }
        guard let firstDigit = utf8.firstIndex(where: { $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        var bytes = Array(utf8[..<firstDigit])
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        let start = bytes.firstIndex { $0 != 0x20 && $0 != 0x09 } ?? bytes.endIndex
        return String(decoding: bytes[start...].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// Each name's stem: its raw stem; a name without digits belongs to the stem of the names it is a prefix of
    /// (`Model` with `Model 2`), and is a stem of its own only when it is a prefix of none.
    package static func stems(_ names: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for name in names {
            if let stem = rawStem(name) {
                result[name] = stem
                continue
            }
            let lower = name.lowercased()
            let owner = names.first { other in
                other != name && rawStem(other) != nil && other.lowercased().hasPrefix(lower)
            }
            result[name] = owner.flatMap(rawStem) ?? lower
        }
        return result
    }

    /// What git remembers of a bundle's versions, across the moves and renames of its folder.
    package struct GitHistory: Sendable, Equatable {
        /// Version name -> when git first added it (a rank: smaller is earlier).
        package var firstAdded: [String: Int]
        /// Every version `.xccurrentversion` named, oldest commit first.
        package var currentVersions: [String]
        /// What was not read because it passed a limit (git's answer, a pointer's size): each said in a verdict
        /// that used the history, so an order decided without it says so.
        package var skipped: [String]

        package init(firstAdded: [String: Int] = [:], currentVersions: [String] = [], skipped: [String] = []) {
            self.firstAdded = firstAdded
            self.currentVersions = currentVersions
            self.skipped = skipped
        }
    }

    /// `names` in natural order; `history`: what git remembers of them, when the bundle is in a repository.
    package static func order(
        _ names: [String], current: String?, mappingPairs: [(source: String, destination: String)],
        history: GitHistory?
    ) -> (order: [String], verdict: Verdict?) {
        let (stemOf, families) = stemsJoiningFamilies(names)
        var names = names
        // Stems that share a leading word and whose every version ends in a version number (`Model_v9`,
        // `Model_payments_v88`) are one family, ordered by that number: the strongest evidence after configuration.
        var reasons: [String] = []
        var conflicts: [String] = []
        for (_, members) in families {
            let sortedMembers = members.sorted {
                let (a, b) = (trailingVersion($0)?.number ?? -1, trailingVersion($1)?.number ?? -1)
                return a != b ? a < b : VersionOrder.precedes($0, $1)
            }
            let numbers = sortedMembers.compactMap { trailingVersion($0)?.number }
            let label = "\(sortedMembers[0])…\(sortedMembers[sortedMembers.count - 1])"
            if Set(numbers).count < numbers.count {
                conflicts.append("two versions of \(label) share a trailing version number")
            } else {
                reasons.append("the trailing version numbers of \(label)")
            }
            // The family's versions stand where its first one did, in number order.
            let first = names.firstIndex { members.contains($0) }!
            names.removeAll { members.contains($0) }
            names.insert(contentsOf: sortedMembers, at: min(first, names.count))
        }
        // Stems in the natural order of their first versions: the order when evidence says nothing.
        var stems: [String] = []
        for name in names where !stems.contains(stemOf[name]!) { stems.append(stemOf[name]!) }
        guard stems.count > 1 else {
            let shown = stems.map { display($0, names, stemOf) }
            if !conflicts.isEmpty { return (names, .ambiguous(stems: shown, reason: conflicts[0])) }
            return (names, reasons.isEmpty ? nil : .inferred(stems: shown, reasons: reasons))
        }
        // The versions are the nodes, each stem a chain in its natural (or version-number) order. Evidence about
        // stems joins one stem's last version to the other's first, so stems stay contiguous; evidence about
        // single versions (what `.xccurrentversion` named, versions git added in turn) may interleave them.
        let stemIndex = Dictionary(uniqueKeysWithValues: stems.enumerated().map { ($1, $0) })
        var position: [String: Int] = [:]
        for (i, name) in names.enumerated() where position[name] == nil { position[name] = i }
        let stemOfNode = names.map { stemIndex[stemOf[$0]!]! }
        let members = stems.indices.map { s in names.indices.filter { stemOfNode[$0] == s } }
        var successors = [[Int]](repeating: [], count: names.count)
        func reaches(_ a: Int, _ b: Int) -> Bool {
            var stack = [a]
            var seen: Set<Int> = [a]
            while let x = stack.popLast() {
                if x == b { return true }
                for y in successors[x] where seen.insert(y).inserted { stack.append(y) }
            }
            return false
        }
        /// Accepts a -> b unless it contradicts what is accepted: a contradiction is a conflict, or, for `soft`
        /// (weaker) evidence, ignored. True when it ordered something new.
        @discardableResult
        func add(_ a: Int, _ b: Int, _ why: String?, soft: Bool = false) -> Bool {
            guard a != b, !reaches(a, b) else { return false }
            if reaches(b, a) {
                if !soft, let why { conflicts.append(why) }
                return false
            }
            successors[a].append(b)
            if let why, !reasons.contains(why) { reasons.append(why) }
            return true
        }
        func addStems(_ a: Int, _ b: Int, _ why: String) {
            guard a != b else { return }
            add(members[a].last!, members[b].first!, why)
        }
        func addFirstAdded(_ firstAdded: [String: Int]) {
            var ranks: [Int: [(node: Int, rank: Int)]] = [:]
            for (node, name) in names.enumerated() {
                if let t = firstAdded[name] { ranks[stemOfNode[node], default: []].append((node, t)) }
            }
            let known = ranks.keys.sorted()
            for a in known {
                for b in known where a != b {
                    let (x, y) = (ranks[a]!, ranks[b]!)
                    let (xFirst, xLast) = (x.map(\.rank).min()!, x.map(\.rank).max()!)
                    let (yFirst, yLast) = (y.map(\.rank).min()!, y.map(\.rank).max()!)
                    if xLast < yFirst {
                        addStems(
                            a, b,
                            "git added the \(display(stems[a], names, stemOf)) versions before the \(display(stems[b], names, stemOf)) ones"
                        )
                    } else if a < b, xFirst < yLast, yFirst < xLast {
                        // Added in turn: the versions, not the stems, are ordered by when git added them.
                        let turns = (x + y).sorted { $0.rank < $1.rank }
                        var ordered = false
                        for (p, q) in zip(turns, turns.dropFirst())
                        where p.rank < q.rank && stemOfNode[p.node] != stemOfNode[q.node]
                            && add(p.node, q.node, nil, soft: true)
                        {
                            ordered = true
                        }
                        let why =
                            "git added the \(display(stems[a], names, stemOf)) and \(display(stems[b], names, stemOf)) versions in turn"
                        if ordered, !reasons.contains(why) { reasons.append(why) }
                    }
                }
            }
        }
        for chain in members { for (x, y) in zip(chain, chain.dropFirst()) { add(x, y, nil) } }
        // Strongest first. What orders two versions is hard evidence (a contradiction is a conflict); that their
        // stems follow one another as blocks is only a presumption, taken last where nothing contradicts it.
        var presumedBlocks: [(Int, Int)] = []
        for pair in mappingPairs {
            guard let s = position[pair.source], let d = position[pair.destination], stemOfNode[s] != stemOfNode[d]
            else { continue }
            add(s, d, "the mapping model from \(pair.source) to \(pair.destination)")
            presumedBlocks.append((stemOfNode[s], stemOfNode[d]))
        }
        if let current, let c = position[current] {
            for node in names.indices where stemOfNode[node] != stemOfNode[c] {
                add(node, c, "the current version \(current) comes last")
                presumedBlocks.append((stemOfNode[node], stemOfNode[c]))
            }
        }
        if let history {
            // Each commit that repointed `.xccurrentversion` named the newest version of its day; a pointer set
            // back (a bad merge) names nothing new, and a step against stronger evidence is not taken.
            var named: [Int] = []
            for name in history.currentVersions {
                if let p = position[name], !named.contains(p) { named.append(p) }
            }
            var ordered = false
            for (a, b) in zip(named, named.dropFirst()) where add(a, b, nil, soft: true) { ordered = true }
            if ordered { reasons.append("the versions .xccurrentversion named in git's history") }
            addFirstAdded(history.firstAdded)
        }
        for (a, b) in presumedBlocks where a != b { add(members[a].last!, members[b].first!, nil, soft: true) }
        // A total order: the first version (its stem first in natural order) that nothing pending must precede,
        // continuing the stem just taken while its next version is free.
        var incoming = [Int](repeating: 0, count: names.count)
        for edges in successors { for y in edges { incoming[y] += 1 } }
        var free = Set(names.indices.filter { incoming[$0] == 0 })
        var order: [Int] = []
        var unordered = false
        while order.count < names.count {
            let next: Int
            if let last = order.last, case let chain = members[stemOfNode[last]],
                let i = chain.firstIndex(of: last), i + 1 < chain.count, free.contains(chain[i + 1])
            {
                next = chain[i + 1]
            } else {
                guard let first = free.min(by: { (stemOfNode[$0], $0) < (stemOfNode[$1], $1) }) else {
                    unordered = true
                    break
                }
                if Set(free.map { stemOfNode[$0] }).count > 1 { unordered = true }
                next = first
            }
            free.remove(next)
            order.append(next)
            for y in successors[next] {
                incoming[y] -= 1
                if incoming[y] == 0 { free.insert(y) }
            }
        }
        let orderedNames = order.map { names[$0] }
        // The stems as they follow one another: a stem that other versions interleave is shown once per run.
        var runs: [[Int]] = []
        for node in order {
            if let last = runs.last?.last, stemOfNode[last] == stemOfNode[node] {
                runs[runs.count - 1].append(node)
            } else {
                runs.append([node])
            }
        }
        let shown = runs.map { $0.count == 1 ? names[$0[0]] : "\(names[$0[0]])…\(names[$0[$0.count - 1]])" }
        // What the history left unread goes with whatever the verdict says.
        let skipped = history?.skipped ?? []
        let unread = skipped.isEmpty ? [] : ["git's history partly unread: \(skipped.joined(separator: "; "))"]
        if !conflicts.isEmpty {
            let reason = ["the evidence conflicts (\(conflicts.joined(separator: "; ")))"] + unread
            return (orderedNames, .ambiguous(stems: shown, reason: reason.joined(separator: "; ")))
        }
        if unordered {
            let reason = ["nothing orders some of the stems against each other"] + unread
            return (orderedNames, .ambiguous(stems: shown, reason: reason.joined(separator: "; ")))
        }
        return (orderedNames, .inferred(stems: shown, reasons: reasons + unread))
    }

    /// How many stems the names have once version-number families are joined (as `order` counts them).
    /// What order advice says, as an identity: each stem by its first version (`Track`, `2` for `Track`, then
    /// `2…11`), so a version added to the last stem is the same advice.
    package static func adviceIdentity(_ stems: [String]) -> String {
        "order "
            + stems.map { $0.split(separator: "…", maxSplits: 1).first.map(String.init) ?? $0 }.joined(separator: "|")
    }

    package static func stemCount(_ names: [String]) -> Int {
        Set(stemsJoiningFamilies(names).stemOf.values).count
    }

    /// Each name's stem, the stems of a version-number family joined into one, and those families.
    static func stemsJoiningFamilies(_ names: [String]) -> (stemOf: [String: String], families: [(String, [String])]) {
        var stemOf = stems(names)
        let families = trailingNumberFamilies(names, stemOf: stemOf)
        for (family, members) in families { for name in members { stemOf[name] = family } }
        return (stemOf, families)
    }

    /// `Model_payments_v88` -> (`Model_payments`, 88): a name ending in `v` and a number after a separator or a
    /// letter; nil for any other name.
    package static func trailingVersion(_ name: String) -> (head: String, number: Int)? {
        let digits = name.reversed().prefix(while: \.isASCIIDigit)
        guard !digits.isEmpty, digits.count <= 9, let number = Int(String(digits.reversed())) else { return nil }
        let rest = name.dropLast(digits.count)
        guard let v = rest.last, v == "v" || v == "V" else { return nil }
        let head = rest.dropLast().trimmingCharacters(in: CharacterSet(charactersIn: "_- "))
        return head.isEmpty ? nil : (head, number)
    }

    /// Stems of names that all end in a version number and share a leading word (the text before the first `_`,
    /// `-` or space), when there are at least two such stems: family key -> its versions.
    package static func trailingNumberFamilies(_ names: [String], stemOf: [String: String]) -> [(String, [String])] {
        var byWord: [String: Set<String>] = [:]
        for name in names {
            guard let (head, _) = trailingVersion(name) else { continue }
            let word = head.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == " " }).first.map {
                $0.lowercased()
            }
            if let word { byWord[word, default: []].insert(stemOf[name]!) }
        }
        var families: [(String, [String])] = []
        for (word, familyStems) in byWord.sorted(by: { $0.key < $1.key }) where familyStems.count > 1 {
            let members = names.filter { familyStems.contains(stemOf[$0]!) }
            // Every version of those stems carries a version number, or no digit at all (the base version, first).
            guard members.allSatisfy({ trailingVersion($0) != nil || !$0.contains(where: \.isASCIIDigit) }) else {
                continue
            }
            families.append(("family:" + word, members))
        }
        return families
    }

    /// A stem as users see it: its first version's name, or the range of its versions.
    package static func display(_ stem: String, _ names: [String], _ stemOf: [String: String]) -> String {
        let members = names.filter { stemOf[$0] == stem }
        return members.count == 1 ? members[0] : "\(members[0])…\(members[members.count - 1])"
    }
}
