import Foundation
import ModelLintModel
import ModelLintHistory
import ModelLintSwiftData
import ModelLintEngine
import ModelLintGather

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

    /// The bundle at `path`; when `path` selects no bundle but holds Swift files that declare SwiftData schemas,
    /// the first schema set's (the plan's, else the module's), with the set.
    package static func loadOrSchemaSet(
        _ path: String, configuration: Configuration, environment: CommandEnvironment
    ) throws -> (bundle: ModelBundle, set: SwiftSchemaSet?) {
        do {
            return (try load(path, configuration: configuration, environment: environment), nil)
        } catch {
            guard let set = HashesCommand.swiftDataSets(path, environment: environment).first else { throw error }
            return (set.bundle, set)
        }
    }

    /// A version by its name, with or without `.xcdatamodel`.
    package static func version(_ name: String, in bundle: ModelBundle) -> ModelVersion? {
        bundle.versions.first { $0.name == name || $0.name + ".xcdatamodel" == name }
    }
}
