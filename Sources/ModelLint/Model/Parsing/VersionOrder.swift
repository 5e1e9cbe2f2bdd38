import Foundation

/// The order versions were created in, as far as names tell: names without any digit first (the base
/// version), then natural order — case-insensitive text, digit runs compared as numbers.
public enum VersionOrder {
    public static func sorted(_ names: [String], explicit: [String]? = nil) -> [String] {
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
    public static func sorted(_ names: [String], following decided: [String]) -> [String] {
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

    public static func precedes(_ a: String, _ b: String) -> Bool {
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

/// Version order when the names have several stems (rules.md "Precise semantics"): versions renamed between
/// releases (`Journal 2`…`Journal 5` then `Notebook v1.4`…; `UserDataModel` then `MultiassetUserDataModel2`…).
/// Within a stem, natural order; the stems are ordered by evidence, strongest first: a mapping model's source
/// precedes its destination; the current version's stem comes last; the commit that first added a stem's
/// versions (only when that orders them).
public enum VersionOrderEvidence {
    public enum Verdict: Equatable, Sendable {
        /// The evidence settled it: the stems in the order used, and what settled each.
        case inferred(stems: [String], reasons: [String])
        /// It conflicts or leaves stems unordered: the order used anyway, and why it is doubtful.
        case ambiguous(stems: [String], reason: String)
    }

    /// The text before the first run of digits, trimmed, compared case-insensitively (nil for a name without digits).
    package static func rawStem(_ name: String) -> String? {
        guard let firstDigit = name.firstIndex(where: \.isASCIIDigit) else { return nil }
        return name[..<firstDigit].trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Each name's stem: its raw stem; a name without digits belongs to the stem of the names it is a prefix of
    /// (`Model` with `Model 2`), and is a stem of its own only when it is a prefix of none.
    public static func stems(_ names: [String]) -> [String: String] {
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

    /// `names` in natural order; `firstAdded`: version name -> when git first added it (a rank, smaller is earlier), when known.
    public static func order(
        _ names: [String], current: String?, mappingPairs: [(source: String, destination: String)],
        firstAdded: [String: Int]?
    ) -> (order: [String], verdict: Verdict?) {
        var stemOf = stems(names)
        var names = names
        // Stems that share a leading word and whose every version ends in a version number (`Model_v9`,
        // `Model_payments_v88`) are one family, ordered by that number: the strongest evidence after configuration.
        var reasons: [String] = []
        var conflicts: [String] = []
        for (family, members) in trailingNumberFamilies(names, stemOf: stemOf) {
            for name in members { stemOf[name] = family }
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
        let index = Dictionary(uniqueKeysWithValues: stems.enumerated().map { ($1, $0) })
        var before = Set<[Int]>()  // accepted edges a -> b: stem a comes before stem b
        func reaches(_ a: Int, _ b: Int) -> Bool {
            var stack = [a]
            var seen: Set<Int> = [a]
            while let x = stack.popLast() {
                if x == b { return true }
                for edge in before where edge[0] == x && seen.insert(edge[1]).inserted { stack.append(edge[1]) }
            }
            return false
        }
        func add(_ a: Int, _ b: Int, _ why: String) {
            guard a != b, !before.contains([a, b]) else { return }
            if reaches(b, a) {
                conflicts.append(why)
                return
            }
            before.insert([a, b])
            if !reasons.contains(why) { reasons.append(why) }
        }
        for pair in mappingPairs {
            guard let s = stemOf[pair.source], let d = stemOf[pair.destination] else { continue }
            add(index[s]!, index[d]!, "the mapping model from \(pair.source) to \(pair.destination)")
        }
        if let current, let c = stemOf[current] {
            for stem in stems where stem != c {
                add(index[stem]!, index[c]!, "the current version \(current) comes last")
            }
        }
        if let firstAdded {
            var firstTime: [Int: Int] = [:]
            for name in names {
                if let t = firstAdded[name] {
                    firstTime[index[stemOf[name]!]!] = min(firstTime[index[stemOf[name]!]!] ?? .max, t)
                }
            }
            for a in firstTime.keys.sorted() {
                for b in firstTime.keys.sorted() where firstTime[a]! < firstTime[b]! {
                    add(
                        a, b,
                        "git added the \(display(stems[a], names, stemOf)) versions before the \(display(stems[b], names, stemOf)) ones"
                    )
                }
            }
        }
        // A total order: repeatedly the first stem (in natural order) that nothing still pending must precede.
        var pending = Array(stems.indices)
        var ordered: [Int] = []
        var unordered = false
        while !pending.isEmpty {
            let free = pending.filter { s in !pending.contains { p in p != s && before.contains([p, s]) } }
            let next = free.first ?? pending[0]
            if free.count > 1 { unordered = true }
            ordered.append(next)
            pending.removeAll { $0 == next }
        }
        let orderedStems = ordered.map { stems[$0] }
        let order = orderedStems.flatMap { stem in names.filter { stemOf[$0] == stem } }
        let shown = ordered.map { display(stems[$0], names, stemOf) }
        if !conflicts.isEmpty {
            return (
                order, .ambiguous(stems: shown, reason: "the evidence conflicts (\(conflicts.joined(separator: "; ")))")
            )
        }
        if unordered {
            return (order, .ambiguous(stems: shown, reason: "nothing orders some of the stems against each other"))
        }
        return (order, .inferred(stems: shown, reasons: reasons))
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
