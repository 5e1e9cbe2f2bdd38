import Foundation
import ModelLintModel
import ModelLintHistory
import ModelLintEngine

/// The one bundle a command such as `diff`, `hashes` or `verify-build` works on: named by its path (or a path
/// inside it), in the version order `check` uses (configured, else decided by the same evidence).
package enum SingleBundle {
    package static func load(_ path: String, configuration: Configuration, environment: CommandEnvironment) throws
        -> ModelBundle
    {
        let selections = try BundleFinder(workingDirectory: environment.workingDirectory).bundles(for: [path])
        guard selections.count == 1, let selection = selections.first else {
            throw UsageError("\(path) selects \(selections.count) bundles; name one .xcdatamodeld")
        }
        let versionOrder = configuration.settings(forBundleAt: selection.absolutePath)?.versionOrder
        let bundle = BundleLoader.load(
            bundleURL: URL(fileURLWithPath: selection.absolutePath), displayPath: selection.displayPath,
            versionOrder: versionOrder)
        guard versionOrder == nil else { return bundle }
        let repositories = RepositoryCache()
        let mappings = RepositoryFiles(repositories: repositories).matchedMappingModels(
            for: selection.absolutePath, versions: bundle.readableVersions,
            configuredFolders: configuration.mappingModels, display: { $0 }
        ).maps
        return bundle.orderedByEvidence(mappings, bundleAt: selection.absolutePath, repositories: repositories)
    }

    /// A version by its name, with or without `.xcdatamodel`.
    package static func version(_ name: String, in bundle: ModelBundle) -> ModelVersion? {
        bundle.versions.first { $0.name == name || $0.name + ".xcdatamodel" == name }
    }
}
