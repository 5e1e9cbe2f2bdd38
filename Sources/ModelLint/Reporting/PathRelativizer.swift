import ModelLintSupport
import ModelLintEngine

/// Paths in machine formats are relative to the repository root (GitHub and code scanning resolve them there).
public struct PathRelativizer: Sendable {
    /// Absolute root, and the working directory the diagnostics' paths are relative to.
    public var root: String
    public var workingDirectory: String

    public init(root: String, workingDirectory: String) {
        self.root = root
        self.workingDirectory = workingDirectory
    }

    public func path(_ displayed: String) -> String {
        let absolute = PathTools.absolute(displayed, relativeTo: workingDirectory)
        return PathTools.relative(absolute, to: root) ?? absolute
    }
}
