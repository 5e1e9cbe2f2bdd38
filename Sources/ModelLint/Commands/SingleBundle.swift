import Foundation
import ModelLintModel
import ModelLintHistory
import ModelLintEngine

/// The one bundle a command such as `diff`, `hashes` or `verify-build` works on: named by its path (or a path
/// inside it), loaded in the configured version order.
package enum SingleBundle {
    package static func load(_ path: String, configuration: Configuration, environment: CommandEnvironment) throws
        -> ModelBundle
    {
        let selections = try BundleFinder(workingDirectory: environment.workingDirectory).bundles(for: [path])
        guard selections.count == 1, let selection = selections.first else {
            throw UsageError("\(path) selects \(selections.count) bundles; name one .xcdatamodeld")
        }
        return BundleLoader.load(
            bundleURL: URL(fileURLWithPath: selection.absolutePath), displayPath: selection.displayPath,
            versionOrder: configuration.settings(forBundleAt: selection.absolutePath)?.versionOrder)
    }

    /// A version by its name, with or without `.xcdatamodel`.
    package static func version(_ name: String, in bundle: ModelBundle) -> ModelVersion? {
        bundle.versions.first { $0.name == name || $0.name + ".xcdatamodel" == name }
    }
}
