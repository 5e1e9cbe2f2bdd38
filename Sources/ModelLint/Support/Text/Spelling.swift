/// Suggestions for mistyped names: options, rule ids, XML attributes.
public enum Spelling {
    /// The candidate closest to a mistyped name, when it is close enough to be a typo.
    package static func closest(to name: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(name, $0)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(2, best.count / 3) else { return nil }
        return best
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
