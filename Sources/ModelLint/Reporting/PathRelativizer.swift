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
}
