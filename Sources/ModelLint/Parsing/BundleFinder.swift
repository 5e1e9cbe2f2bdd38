import Foundation

/// Turns command-line paths into the bundles they select (cli.md "PATH").
public struct BundleFinder {
    public static var skippedFolders: Set<String> { DirectoryWalker.skippedFolders }

    public struct Selection: Equatable, Sendable {
        /// Absolute, standardized path of the `.xcdatamodeld` folder.
        public var absolutePath: String
        /// Relative to the working directory when below it, otherwise absolute.
        public var displayPath: String
    }

    public enum FinderError: Error, Equatable, CustomStringConvertible {
        case pathNotFound(String)
        public var description: String {
            switch self {
            case .pathNotFound(let path): return "\(path): no such file or directory"
            }
        }
    }

    public var workingDirectory: String
    /// Glob patterns (relative to `excludeBase`) of paths never searched.
    public var exclude: [String]
    public var excludeBase: String

    /// Every walk of the run shares one budget (`DirectoryWalker`).
    public var walker: DirectoryWalker

    public init(workingDirectory: String, exclude: [String] = [], excludeBase: String? = nil, walker: DirectoryWalker = DirectoryWalker()) {
        self.workingDirectory = PathTools.standardize(workingDirectory)
        self.exclude = exclude
        self.excludeBase = PathTools.standardize(excludeBase ?? workingDirectory)
        self.walker = walker
    }

    /// Bundles selected by `paths` (the working directory when empty), each once, in the order found.
    public func bundles(for paths: [String]) throws -> [Selection] {
        var found: [String] = []
        // By bytes: two bundles whose paths differ only in Unicode normalization are two bundles.
        var seen: Set<ExactName> = []
        func add(_ path: String) {
            if seen.insert(ExactName(path)).inserted { found.append(path) }
        }
        for raw in paths.isEmpty ? ["."] : paths {
            let absolute = PathTools.absolute(raw, relativeTo: workingDirectory)
            if let bundle = PathTools.enclosingBundle(of: absolute) {
                // A file inside a bundle selects it, even one a commit deletes (pre-commit passes those too).
                guard FileManager.default.fileExists(atPath: bundle) else { throw FinderError.pathNotFound(raw) }
                add(bundle)
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
                throw FinderError.pathNotFound(raw)
            }
            // A version outside any bundle, named (or a file inside it): linted as a bundle of one version.
            if let version = PathTools.enclosingVersion(of: absolute) {
                add(version)
                continue
            }
            if isDirectory.boolValue { search(absolute, add: add) }
        }
        return found.map { Selection(absolutePath: $0, displayPath: PathTools.display($0, relativeTo: workingDirectory)) }
    }

    private func search(_ root: String, add: (String) -> Void) {
        walker.walk(root, skip: isExcluded) { path, name in
            if name.hasSuffix(".xcdatamodeld") { add(path); return false }
            return true
        }
    }

    func isExcluded(_ path: String) -> Bool {
        guard !exclude.isEmpty else { return false }
        let relative = PathTools.relative(path, to: excludeBase) ?? path
        return exclude.contains { Glob.matches(pattern: $0, path: relative) }
    }
}

public enum PathTools {
    public static func standardize(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    public static func absolute(_ path: String, relativeTo base: String) -> String {
        let joined = path.hasPrefix("/") ? path : base + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` relative to `base` when it lies below it.
    public static func relative(_ path: String, to base: String) -> String? {
        if path == base { return "." }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
    }

    public static func display(_ path: String, relativeTo base: String) -> String {
        relative(path, to: base) ?? path
    }

    /// The nearest ancestor (or the path itself) that is a `.xcdatamodeld` folder.
    /// The `.xcdatamodel` folder a path names or is inside of, when no `.xcdatamodeld` encloses it.
    static func enclosingVersion(of absolute: String) -> String? {
        var components = absolute.split(separator: "/", omittingEmptySubsequences: true)
        while let last = components.last {
            if last.hasSuffix(".xcdatamodel") { return "/" + components.joined(separator: "/") }
            components.removeLast()
        }
        return nil
    }

    static func enclosingBundle(of absolute: String) -> String? {
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
public enum Glob {
    enum Token: Equatable {
        case literal(Character)
        case one          // ?
        case star         // *: any characters but /
        case globstar     // **: any characters
    }

    /// `**` is any characters, and a `/` right after it is part of it (`Vendor/**/x` and `Vendor/**x` alike);
    /// a third `*` is an ordinary `*`.
    static func compile(_ pattern: String) -> [Token] {
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

    public static func matches(pattern: String, path: String) -> Bool {
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
                case .literal(let l) where l == c: next[i + 1] = true; any = true
                case .one where c != "/": next[i + 1] = true; any = true
                case .star where c != "/": next[i] = true; any = true
                case .globstar: next[i] = true; any = true
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
