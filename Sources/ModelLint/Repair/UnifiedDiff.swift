/// A unified diff of two texts by lines (Myers' algorithm), as `git diff` prints one: `--- a/path`, `+++ b/path`,
/// hunks with three lines of context. A file that did not exist is diffed from `/dev/null`.
package enum UnifiedDiff {
    package static func diff(old: [UInt8]?, new: [UInt8]?, path: String, context: Int = 3) -> String {
        let a = lines(old ?? [])
        let b = lines(new ?? [])
        let script = edits(a, b)
        guard script.contains(where: { $0 != .same }) else { return "" }
        var out = "--- " + (old == nil ? "/dev/null" : "a/" + path) + "\n"
        out += "+++ " + (new == nil ? "/dev/null" : "b/" + path) + "\n"
        // Positions of each edit in a and b.
        var entries: [(op: Op, i: Int, j: Int)] = []
        var i = 0
        var j = 0
        for op in script {
            entries.append((op, i, j))
            switch op {
            case .same:
                i += 1
                j += 1
            case .delete: i += 1
            case .insert: j += 1
            }
        }
        var k = 0
        while k < entries.count {
            guard entries[k].op != .same else {
                k += 1
                continue
            }
            // A hunk: from `context` lines before this change to `context` lines after the last change that is
            // within 2 * context lines of the next.
            let first = max(0, k - context)
            var last = k
            var scan = k
            while scan < entries.count {
                if entries[scan].op != .same {
                    last = scan
                } else if scan - last > 2 * context {
                    break
                }
                scan += 1
            }
            let end = min(entries.count, last + context + 1)
            let hunk = entries[first..<end]
            let oldCount = hunk.filter { $0.op != .insert }.count
            let newCount = hunk.filter { $0.op != .delete }.count
            let oldStart = oldCount == 0 ? hunk.first!.i : hunk.first!.i + 1
            let newStart = newCount == 0 ? hunk.first!.j : hunk.first!.j + 1
            out += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
            for entry in hunk {
                switch entry.op {
                case .same: out += " " + shown(a[entry.i])
                case .delete: out += "-" + shown(a[entry.i])
                case .insert: out += "+" + shown(b[entry.j])
                }
            }
            k = end
        }
        return out
    }

    enum Op: Equatable { case same, delete, insert }

    /// A line as printed: its own line end dropped, and git's marker when the file does not end with one.
    private static func shown(_ line: String) -> String {
        // CR LF is one Character: compared by bytes. The CR is not printed (no raw control character in output).
        if line.utf8.count >= 2, Array(line.utf8.suffix(2)) == [0x0D, 0x0A] {
            return String(decoding: line.utf8.dropLast(2), as: UTF8.self) + "\n"
        }
        if line.hasSuffix("\n") { return line }
        return line + "\n\\ No newline at end of file\n"
    }

    /// Lines with their line ends kept (so a CRLF changed to LF is a change).
    static func lines(_ bytes: [UInt8]) -> [String] {
        var out: [String] = []
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            out.append(String(decoding: bytes[start...i], as: UTF8.self))
            start = i + 1
        }
        if start < bytes.count { out.append(String(decoding: bytes[start...], as: UTF8.self)) }
        return out
    }

    /// How many saved frontier entries the search may hold (8 M: 64 MB): the frontiers grow with the lines times
    /// the edits, and two unrelated files of a few thousand lines each must not take gigabytes.
    static let frontierBudget = 8 << 20

    /// The edit script from a to b: the common first and last lines kept, the rest the shortest script (Myers 1986,
    /// linear in the lines times the edits) while it fits `frontierBudget`, else every remaining line replaced.
    static func edits(_ a: [String], _ b: [String]) -> [Op] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        let middleA = Array(a[prefix..<(a.count - suffix)])
        let middleB = Array(b[prefix..<(b.count - suffix)])
        let middle =
            shortest(middleA, middleB)
            ?? Array(repeating: .delete, count: middleA.count) + Array(repeating: .insert, count: middleB.count)
        return Array(repeating: .same, count: prefix) + middle + Array(repeating: .same, count: suffix)
    }

    /// The shortest edit script, or nil when its search would outgrow `frontierBudget`.
    static func shortest(_ a: [String], _ b: [String]) -> [Op]? {
        let n = a.count
        let m = b.count
        let max = n + m
        guard max > 0 else { return [] }
        var v = [Int](repeating: 0, count: 2 * max + 2)
        var trace: [[Int]] = []
        var found = false
        for d in 0...max {
            guard (d + 1) * v.count <= frontierBudget else { return nil }
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && v[k - 1 + max] < v[k + 1 + max]) {
                    x = v[k + 1 + max]
                } else {
                    x = v[k - 1 + max] + 1
                }
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[k + max] = x
                if x >= n && y >= m {
                    found = true
                    break
                }
            }
            if found { break }
        }
        // Walk back through the saved frontiers.
        var ops: [Op] = []
        var x = n
        var y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK: Int
            if k == -d || (k != d && v[k - 1 + max] < v[k + 1 + max]) {
                previousK = k + 1
            } else {
                previousK = k - 1
            }
            let previousX = d == 0 ? 0 : v[previousK + max]
            let previousY = previousX - previousK
            while x > previousX && y > previousY {
                ops.append(.same)
                x -= 1
                y -= 1
            }
            if d > 0 {
                ops.append(x == previousX ? .insert : .delete)
            }
            x = previousX
            y = previousY
        }
        while x > 0 && y > 0 {
            ops.append(.same)
            x -= 1
            y -= 1
        }
        return ops.reversed()
    }
}
