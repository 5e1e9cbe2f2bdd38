import Foundation

package enum PathTools {
    package static func standardize(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    package static func absolute(_ path: String, relativeTo base: String) -> String {
        let joined = path.hasPrefix("/") ? path : base + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` relative to `base` when it lies below it.
    package static func relative(_ path: String, to base: String) -> String? {
        if path == base { return "." }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
    }

    /// The nearest `name` at or above `directory` (a file there, as `fileExists` sees it), looking no higher than
    /// `top` when given (a repository's top folder), else up to `/`.
    package static func nearest(_ name: String, from directory: String, stoppingAt top: String? = nil) -> String? {
        var current = standardize(directory)
        while true {
            let candidate = current + "/" + name
            if FileReader.kind(at: candidate) != nil { return candidate }
            let up = (current as NSString).deletingLastPathComponent
            if current == top || current == "/" || up == current || up.isEmpty { return nil }
            current = up
        }
    }

    /// `path` relative to `base` (both absolute), with `..` for each folder of `base` it is not under.
    package static func relativeWithParents(_ path: String, to base: String) -> String {
        let from = base.split(separator: "/", omittingEmptySubsequences: true)
        let to = path.split(separator: "/", omittingEmptySubsequences: true)
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...].map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// The path with every symlink resolved (`realpath`); nil when nothing is there.
    package static func realPath(_ path: String) -> String? {
        InputLog.consulted(path)
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` is `root` or below it; both real paths (`realPath`), compared by components.
    package static func isInside(_ path: String, _ root: String) -> Bool {
        path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
    }

    package static func display(_ path: String, relativeTo base: String) -> String {
        relative(path, to: base) ?? path
    }

    /// The `.xcdatamodel` folder a path names or is inside of, when no `.xcdatamodeld` encloses it.
    package static func enclosingVersion(of absolute: String) -> String? {
        var components = absolute.split(separator: "/", omittingEmptySubsequences: true)
        while let last = components.last {
            if last.hasSuffix(".xcdatamodel") { return "/" + components.joined(separator: "/") }
            components.removeLast()
        }
        return nil
    }

    /// The nearest ancestor (or the path itself) that is a `.xcdatamodeld` folder.
    package static func enclosingBundle(of absolute: String) -> String? {
        var components = absolute.split(separator: "/", omittingEmptySubsequences: true)
        while let last = components.last {
            if last.hasSuffix(".xcdatamodeld") { return "/" + components.joined(separator: "/") }
            components.removeLast()
        }
        return nil
    }
}

/// `*` matches within one path component, `**` across components, `?` one character; a pattern naming a folder
/// matches what is inside it. Matched by simulating the pattern's automaton
/// (a set of positions per character): time is pattern length × path length whatever the pattern, so a hostile
/// `**a**a**a…b` cannot make it backtrack exponentially.
package enum Glob {
    package enum Token: Equatable {
        case literal(Character)
        case one  // ?
        case star  // *: any characters but /
        case globstar  // **: any characters
    }

    /// `**` is any characters, and a `/` right after it is part of it (`Vendor/**/x` and `Vendor/**x` alike);
    /// a third `*` is an ordinary `*`.
    package static func compile(_ pattern: String) -> [Token] {
        let p = Array(pattern)
        var tokens: [Token] = []
        var i = 0
        while i < p.count {
            if p[i] == "*" && i + 1 < p.count && p[i + 1] == "*" {
                tokens.append(.globstar)
                i += 2
                if i < p.count && p[i] == "/" { i += 1 }
            } else if p[i] == "*" {
                tokens.append(.star)
                i += 1
            } else if p[i] == "?" {
                tokens.append(.one)
                i += 1
            } else {
                tokens.append(.literal(p[i]))
                i += 1
            }
        }
        return tokens
    }

    package static func matches(pattern: String, path: String) -> Bool {
        let tokens = compile(pattern)
        let end = tokens.count
        var current = [Bool](repeating: false, count: end + 1)
        func close(_ states: inout [Bool]) {
            // Epsilon moves go forward only: one pass in order reaches every state.
            for i in 0..<end where states[i] {
                switch tokens[i] {
                case .star, .globstar: states[i + 1] = true
                default: break
                }
            }
        }
        current[0] = true
        close(&current)
        for c in path {
            // A pattern naming a folder excludes what is inside it.
            if c == "/" && current[end] { return true }
            var next = [Bool](repeating: false, count: end + 1)
            var any = false
            for i in 0..<end where current[i] {
                switch tokens[i] {
                case .literal(let l) where l == c:
                    next[i + 1] = true
                    any = true
                case .one where c != "/":
                    next[i + 1] = true
                    any = true
                case .star where c != "/":
                    next[i] = true
                    any = true
                case .globstar:
                    next[i] = true
                    any = true
                default: break
                }
            }
            guard any else { return false }
            close(&next)
            current = next
        }
        return current[end]
    }
}
