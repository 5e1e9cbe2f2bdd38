/// Where each bracketed group of a file's tokens ends, matched once with a stack: skipping a group then costs one
/// lookup however often it is asked, so readers that try a call at every token stay linear in the file.
package struct SwiftBracketEnds: Sendable {
    /// For an opening `(`, `[` or `{`: the index after the bracket that closes it (any kind closes any kind, as a
    /// depth count would read them), or -1 when none does. 0 elsewhere.
    private let ends: [Int]

    init(_ tokens: [SwiftToken]) {
        var ends = [Int](repeating: 0, count: tokens.count)
        var open: [Int] = []
        for (k, t) in tokens.enumerated() where t.kind == .punctuation {
            switch t.text {
            case "(", "[", "{": open.append(k)
            case ")", "]", "}": if let o = open.popLast() { ends[o] = k + 1 }
            default: break
            }
        }
        for o in open { ends[o] = -1 }
        self.ends = ends
    }

    /// The index after the group opened at `k` (the token count when nothing closes it); `k + 1` when `k` opens
    /// none.
    func end(from k: Int) -> Int {
        guard k >= 0, k < ends.count, ends[k] != 0 else { return k + 1 }
        return ends[k] < 0 ? ends.count : ends[k]
    }

    /// Whether a bracket closes the group opened at `k`.
    func isClosed(_ k: Int) -> Bool { k >= 0 && k < ends.count && ends[k] > 0 }
}
