import ModelLintSupport
import ModelLintEngine
import ModelLintGather

/// Paths in machine formats are relative to the repository root (GitHub and code scanning resolve them there).
package struct PathRelativizer: Sendable {
    /// Absolute root, and the working directory the diagnostics' paths are relative to.
    package var root: String
    package var workingDirectory: String

    package init(root: String, workingDirectory: String) {
        self.root = root
        self.workingDirectory = workingDirectory
    }

    package func path(_ displayed: String) -> String {
        let absolute = PathTools.absolute(displayed, relativeTo: workingDirectory)
        return PathTools.relative(absolute, to: root) ?? absolute
    }

    /// Relative to the repository root always, with `..` for a file outside it (a bundle named on the command line
    /// from another tree), for formats whose paths must be relative (GitLab's).
    package func relativePath(_ displayed: String) -> String {
        let absolute = PathTools.absolute(displayed, relativeTo: workingDirectory)
        if let inside = PathTools.relative(absolute, to: root) { return inside }
        let from = root.split(separator: "/")
        let to = absolute.split(separator: "/")
        var common = 0
        while common < min(from.count, to.count), from[common] == to[common] { common += 1 }
        return (Array(repeating: "..", count: from.count - common) + to[common...].map(String.init))
            .joined(separator: "/")
    }
}
