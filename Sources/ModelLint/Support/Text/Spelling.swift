/// Suggestions for mistyped names: options, rule ids, XML attributes.
package enum Spelling {
    /// The candidate closest to a mistyped name, when it is close enough to be a typo.
    package static func closest(to name: String, in candidates: [String]) -> String? {
        let lowered = name.lowercased()
        // The same name in other letter case; then the one candidate that begins like it (`skip-versions` for
        // `skip-version-upgrade`, `required` for `required-attribute-without-default`).
        if let same = candidates.first(where: { $0.lowercased() == lowered }) { return same }
        if lowered.count >= 4 {
            let prefixed = candidates.filter { $0.lowercased().hasPrefix(lowered) }
            if prefixed.count == 1 { return prefixed[0] }
            let shared = candidates.map { ($0, commonPrefix(lowered, $0.lowercased())) }
            if let longest = shared.map(\.1).max(), longest * 3 >= lowered.count * 2, longest >= 4,
                case let best = shared.filter({ $0.1 == longest }), best.count == 1
            {
                return best[0].0
            }
        }
        let scored = candidates.map { ($0, editDistance(lowered, $0.lowercased())) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(2, best.count / 3) else { return nil }
        return best
    }

    /// How many leading characters two strings share.
    static func commonPrefix(_ a: String, _ b: String) -> Int {
        zip(a, b).prefix { $0 == $1 }.count
    }

    /// "did you mean X? " when a candidate is close to `name`, else "": the start of a message's parenthesis.
    package static func didYouMean(_ name: String, in candidates: [String]) -> String {
        closest(to: name, in: candidates).map { "did you mean \($0)? " } ?? ""
    }

    package static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a)
        let y = Array(b)
        if x.isEmpty { return y.count }
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var row = [i] + Array(repeating: 0, count: y.count)
            for j in stride(from: 1, through: y.count, by: 1) {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return previous[y.count]
    }
}
