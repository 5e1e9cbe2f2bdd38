import Foundation

/// Turns command-line paths into the bundles they select (cli.md "PATH").
public struct BundleFinder {
    public static let skippedFolders: Set<String> = [".build", "DerivedData", "Pods", "Carthage", ".git"]

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

    public init(workingDirectory: String, exclude: [String] = [], excludeBase: String? = nil) {
        self.workingDirectory = PathTools.standardize(workingDirectory)
        self.exclude = exclude
        self.excludeBase = PathTools.standardize(excludeBase ?? workingDirectory)
    }

    /// Bundles selected by `paths` (the working directory when empty), each once, in the order found.
    public func bundles(for paths: [String]) throws -> [Selection] {
        var found: [String] = []
        var seen: Set<String> = []
        func add(_ path: String) {
            if seen.insert(path).inserted { found.append(path) }
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
            if isDirectory.boolValue { search(absolute, add: add) }
        }
        return found.map { Selection(absolutePath: $0, displayPath: PathTools.display($0, relativeTo: workingDirectory)) }
    }

    private func search(_ root: String, add: (String) -> Void) {
        var visited: Set<String> = []
        var stack = [root]
        while let directory = stack.popLast() {
            // Resolving symlinks makes a loop visit each real folder once.
            let real = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
            guard visited.insert(real).inserted else { continue }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            var subfolders: [String] = []
            for name in names.sorted() {
                let path = directory + "/" + name
                if BundleFinder.skippedFolders.contains(name) || isExcluded(path) { continue }
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
                if name.hasSuffix(".xcdatamodeld") { add(path) } else { subfolders.append(path) }
            }
            stack.append(contentsOf: subfolders.reversed())
        }
    }

    private func isExcluded(_ path: String) -> Bool {
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
    static func enclosingBundle(of absolute: String) -> String? {
        var components = absolute.split(separator: "/", omittingEmptySubsequences: true)
        while let last = components.last {
            if last.hasSuffix(".xcdatamodeld") { return "/" + components.joined(separator: "/") }
            components.removeLast()
        }
        return nil
    }
}

/// `*` matches within one path component, `**` across components, `?` one character.
public enum Glob {
    public static func matches(pattern: String, path: String) -> Bool {
        let p = Array(pattern), s = Array(path)
        // Memoized recursion keeps hostile patterns linear-ish.
        var memo: [Int: Bool] = [:]
        func match(_ i: Int, _ j: Int) -> Bool {
            let key = i * (s.count + 1) + j
            if let cached = memo[key] { return cached }
            let result: Bool
            if i == p.count {
                // A pattern naming a folder excludes what is inside it.
                result = j == s.count || s[j] == "/"
            } else if p[i] == "*" && i + 1 < p.count && p[i + 1] == "*" {
                var next = i + 2
                if next < p.count && p[next] == "/" { next += 1 }
                result = (j...s.count).contains { match(next, $0) }
            } else if p[i] == "*" {
                var k = j
                var found = match(i + 1, k)
                while !found && k < s.count && s[k] != "/" { k += 1; found = match(i + 1, k) }
                result = found
            } else if j < s.count && (p[i] == "?" ? s[j] != "/" : p[i] == s[j]) {
                result = match(i + 1, j + 1)
            } else {
                result = false
            }
            memo[key] = result
            return result
        }
        return match(0, 0)
    }
}
