import Foundation
import ModelLintSupport
import ModelLintModel

/// Turns command-line paths into the bundles they select (cli.md "PATH").
package struct BundleFinder: Sendable {
    package static var skippedFolders: Set<String> { DirectoryWalker.skippedFolders }

    package struct Selection: Equatable, Sendable {
        /// Absolute, standardized path of the `.xcdatamodeld` folder.
        package var absolutePath: String
        /// Relative to the working directory when below it, otherwise absolute.
        package var displayPath: String
        /// The folder whose search found it (absolute); nil when it was named.
        package var searchRoot: String?

        package init(absolutePath: String, displayPath: String, searchRoot: String? = nil) {
            self.absolutePath = absolutePath
            self.displayPath = displayPath
            self.searchRoot = searchRoot
        }
    }

    package enum FinderError: Error, Equatable, CustomStringConvertible {
        case pathNotFound(String)
        package var description: String {
            switch self {
            case .pathNotFound(let path): return "\(path): no such file or directory"
            }
        }
    }

    package var workingDirectory: String
    /// Glob patterns (relative to `excludeBase`) of paths never searched.
    package var exclude: [String]
    package var excludeBase: String

    /// Every walk of the run shares one budget (`DirectoryWalker`).
    package var walker: DirectoryWalker

    package init(
        workingDirectory: String, exclude: [String] = [], excludeBase: String? = nil,
        walker: DirectoryWalker = DirectoryWalker()
    ) {
        self.workingDirectory = PathTools.standardize(workingDirectory)
        self.exclude = exclude
        self.excludeBase = PathTools.standardize(excludeBase ?? workingDirectory)
        self.walker = walker
    }

    /// Bundles selected by `paths` (the working directory when empty), each once, in the order found; a search
    /// that ran out of its folder budget throws `DirectoryWalker.Exhausted`.
    package func bundles(for paths: [String]) throws -> [Selection] {
        try selections(for: paths).bundles
    }

    /// The bundles `paths` select and, from the same walk, the Swift files in the folders they name (each once,
    /// in the order found), grouped by the path that found them: the files SwiftData schemas are read from. A
    /// `.swift` file named selects the folder it is in.
    package func selections(for paths: [String]) throws -> (
        bundles: [Selection], swiftFiles: [(root: String, files: [String])]
    ) {
        var swiftFiles: [(root: String, files: [String])] = []
        var seenSwift: Set<ExactName> = []
        var found: [(path: String, searchRoot: String?)] = []
        // By bytes: two bundles whose paths differ only in Unicode normalization are two bundles.
        var seen: Set<ExactName> = []
        func add(_ path: String, searchRoot: String? = nil) {
            if seen.insert(ExactName(path)).inserted { found.append((path, searchRoot)) }
        }
        for raw in paths.isEmpty ? ["."] : paths {
            let absolute = PathTools.absolute(raw, relativeTo: workingDirectory)
            if let bundle = PathTools.enclosingBundle(of: absolute) {
                // A file inside a bundle selects it, even one a commit deletes (pre-commit passes those too).
                guard FileReader.kind(at: bundle) != nil else { throw FinderError.pathNotFound(raw) }
                add(bundle)
                continue
            }
            guard let kind = FileReader.kind(at: absolute) else { throw FinderError.pathNotFound(raw) }
            let isDirectory = kind == .directory
            // A version outside any bundle, named (or a file inside it): linted as a bundle of one version.
            if let version = PathTools.enclosingVersion(of: absolute) {
                add(version)
                continue
            }
            let folder = isDirectory ? absolute : (absolute as NSString).deletingLastPathComponent
            if isDirectory || (absolute.hasSuffix(".swift") && !seenSwift.contains(ExactName(folder))) {
                var files: [String] = []
                if !isDirectory { seenSwift.insert(ExactName(folder)) }
                // A file named selects its folder's Swift files, not the bundles in that folder.
                search(folder, add: isDirectory ? { add($0, searchRoot: folder) } : { _ in }) { file in
                    if seenSwift.insert(ExactName(file)).inserted { files.append(file) }
                }
                if !files.isEmpty { swiftFiles.append((folder, files)) }
            }
        }
        try walker.requireComplete(workingDirectory: workingDirectory)
        let bundles = found.map {
            Selection(
                absolutePath: $0.path, displayPath: PathTools.display($0.path, relativeTo: workingDirectory),
                searchRoot: $0.searchRoot)
        }
        return (bundles, swiftFiles)
    }

    private func search(_ root: String, add: (String) -> Void, swift: (String) -> Void = { _ in }) {
        walker.walk(
            root, skip: isExcluded,
            file: { path, name in
                if name.hasSuffix(".swift") { swift(path) }
            },
            visit: { path, name in
                // A bundle, or a lone version (an unversioned model: Xcode compiles it to a `.mom`); the walk never
                // enters a bundle, so a version found is outside any.
                if name.hasSuffix(".xcdatamodeld") || name.hasSuffix(".xcdatamodel") {
                    add(path)
                    return false
                }
                return true
            })
    }

    package func isExcluded(_ path: String) -> Bool {
        guard !exclude.isEmpty else { return false }
        let relative = PathTools.relative(path, to: excludeBase) ?? path
        return exclude.contains { Glob.matches(pattern: $0, path: relative) }
    }
}
