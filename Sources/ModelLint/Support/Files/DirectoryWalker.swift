import Foundation
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Walks a folder tree that anyone can commit to. A symlink to a folder is followed only when it leads to a
/// folder inside the tree being walked (a committed `x -> /` must not make modellint walk the machine), each
/// real folder is visited once (symlink loops end), build and dependency folders are skipped, and the whole run
/// has a budget of folders, so no tree can keep it busy for long.
package final class DirectoryWalker: Sendable {
    /// Folders never descended into (cli.md "PATH").
    package static let skippedFolders: Set<String> = [
        ".build", "DerivedData", "Pods", "Carthage", ".git", "node_modules",
    ]

    /// Folders one run may list in all, across every walk.
    package static let defaultBudget = 200_000

    private struct State {
        var remaining: Int
        /// Set when a walk stopped because the budget ran out: the folder it was about to list.
        var exhausted: String?
        var unreadableNames: [String] = []
    }

    private let budget: Int
    private let state: Locked<State>

    /// How many folders this walker has listed (tests and benchmarks read it).
    package var foldersListed: Int { budget - state.withLock { $0.remaining } }
    /// Entries skipped because their names are not valid UTF-8 (paths with `\x..` escapes).
    package var unreadableNames: [String] { state.withLock { $0.unreadableNames } }

    package init(budget: Int = DirectoryWalker.defaultBudget) {
        state = Locked(State(remaining: budget))
        self.budget = budget
    }

    private func spend() -> Bool {
        state.withLock { state in
            guard state.remaining > 0 else { return false }
            state.remaining -= 1
            return true
        }
    }

    /// Calls `visit` for every folder below `root` (not `root` itself), depth first, names sorted, with its path
    /// (as reached, through symlinks) and name; `visit` returns whether to descend into it. `skip` names further
    /// paths never visited.
    package func walk(
        _ root: String, skip: (String) -> Bool = { _ in false },
        file: (_ path: String, _ name: String) -> Void = { _, _ in },
        visit: (_ path: String, _ name: String) -> Bool
    ) {
        let realRoot = PathTools.realPath(root) ?? root
        // Real paths by bytes: folders whose names differ only in Unicode normalization are two folders.
        var visited: Set<ExactName> = [ExactName(realRoot)]
        // Each folder with its real path: a plain folder's is its parent's plus its name.
        var stack = [(root, realRoot)]
        while let (directory, realDirectory) = stack.popLast() {
            guard spend() else {
                state.withLock { state in
                    if state.exhausted == nil { state.exhausted = directory }
                }
                return
            }
            let entries = DirectoryListing.entries(of: directory)
            if !entries.invalid.isEmpty {
                let unreadable = entries.invalid.map { directory + "/" + DirectoryListing.display($0) }
                state.withLock { $0.unreadableNames += unreadable }
            }
            let names = entries.names
            var subfolders: [(String, String)] = []
            for name in names.sorted() where !Self.skippedFolders.contains(name) {
                let path = directory + "/" + name
                guard !skip(path) else { continue }
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                let real: String
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    real = realDirectory + "/" + name
                case S_IFLNK:
                    guard FileReader.kind(at: path) == .directory, let resolved = PathTools.realPath(path),
                        resolved == realRoot || resolved.hasPrefix(realRoot + "/")
                    else { continue }
                    real = resolved
                case S_IFREG:
                    file(path, name)
                    continue
                default:
                    continue
                }
                guard visited.insert(ExactName(real)).inserted else { continue }
                if visit(path, name) { subfolders.append((path, real)) }
            }
            stack.append(contentsOf: subfolders.reversed())
        }
    }

    /// A walk that ran out of budget saw only part of the tree: what it did not see could hold the bundle a
    /// pull request changed, so the run stops rather than pass on what it found.
    package struct Exhausted: Error, CustomStringConvertible, Sendable {
        package var description: String
    }

    package func requireComplete(workingDirectory: String) throws {
        guard let folder = state.withLock({ $0.exhausted }) else { return }
        throw Exhausted(
            description:
                "the search listed \(budget) folders, its budget, and stopped at \(PathTools.display(folder, relativeTo: workingDirectory)) before seeing the whole tree; exclude folders (\"exclude\") or raise the budget (\"walkBudget\" in .modellint.json)"
        )
    }
}
