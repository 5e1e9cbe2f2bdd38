import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData
import ModelLintRules

/// Everything `check` judges, already found and read (`Workspace` in the commands does that): the linter
/// takes this and touches neither the file system nor git.
package struct LintInput: Sendable {
    /// One bundle of the run, loaded, validated against its settings and ordered.
    package struct Bundle: Sendable {
        package var bundle: ModelBundle
        package var settings: BundleSettings?
        /// The mapping models that name this bundle's versions.
        package var mappingModels: [MappingModel]
        /// The mapping models that claim this bundle but embed models equal to none of its versions.
        package var unmatchedMappingModels: [UnmatchedMappingModel]
        /// The mapping model files both were matched from: `--only-new` matches them against the bundle at REF.
        package var mappingModelSources: [MappingModelSource]
        /// The shipped-version records that apply to it (lock file, `--against`, `--released`).
        package var histories: [ShippedHistory]
        /// The Xcode projects that reference it, each with the bundle's path relative to the project's folder.
        package var projects: [(project: XcodeProject, bundlePath: String)]
        /// Set when the bundle is a SwiftData schema set read from Swift files.
        package var swiftData: SwiftSchemaSet?
        /// The folder whose Swift files it was read from (absolute): where a revision's files are read from too.
        package var swiftDataRoot: String?

        /// A SwiftData schema set, judged as a bundle whose custom stages cover their steps as mapping models do.
        package init(swiftData set: SwiftSchemaSet, settings: BundleSettings? = nil, histories: [ShippedHistory] = []) {
            self.init(bundle: set.bundle, settings: settings, mappingModels: set.customStages, histories: histories)
            swiftData = set
        }

        package init(
            bundle: ModelBundle, settings: BundleSettings? = nil, mappingModels: [MappingModel] = [],
            unmatchedMappingModels: [UnmatchedMappingModel] = [], mappingModelSources: [MappingModelSource] = [],
            histories: [ShippedHistory] = [], projects: [(project: XcodeProject, bundlePath: String)] = []
        ) {
            self.bundle = bundle
            self.settings = settings
            self.mappingModels = mappingModels
            self.unmatchedMappingModels = unmatchedMappingModels
            self.mappingModelSources = mappingModelSources
            self.histories = histories
            self.projects = projects
        }
    }

    /// The lock file as read, with the keys of its entries that name a bundle folder present on disk.
    package struct Lock: Sendable {
        package var file: LockFile
        /// As displayed.
        package var path: String
        package var bundleKeysOnDisk: Set<ExactName>
        /// Judge the entries even when no bundle is linted: a commit deletes a locked bundle.
        package var judgedWithoutBundles = false

        package init(file: LockFile, path: String, bundleKeysOnDisk: Set<ExactName>) {
            self.file = file
            self.path = path
            self.bundleKeysOnDisk = bundleKeysOnDisk
        }
    }

    /// A golden store named by `goldenStores`, its metadata read.
    package struct GoldenStore: Sendable {
        /// As displayed.
        package var path: String
        package var metadata: StoreMetadata

        package init(path: String, metadata: StoreMetadata) {
            self.path = path
            self.metadata = metadata
        }
    }

    package var bundles: [Bundle]

    /// A mapping model whose embedded models are another bundle's versions maps that bundle: it is no stale mapping
    /// model of a bundle with the same name elsewhere (an app and its extension each shipping `Vault.xcdatamodeld`,
    /// a module per folder with one name), which the paths it records cannot tell apart.
    package static func droppingUnmatchedMappedElsewhere(_ bundles: [Bundle]) -> [Bundle] {
        let mapped = Set(bundles.flatMap { $0.mappingModels.compactMap(\.path) })
        guard !mapped.isEmpty else { return bundles }
        return bundles.map { item in
            var item = item
            item.unmatchedMappingModels.removeAll { mapped.contains($0.path) }
            return item
        }
    }

    package var lock: Lock?
    /// The references to the model found in the Swift files of the bundles' trees.
    package var sourceReferences: [SourceReference]
    package var goldenStores: [GoldenStore]
    /// Paths under the searched folders that could not be read (reported, never fatal).
    package var unreadablePaths: [String]
    /// Files found in the tree but not read: they resolve outside it (a committed symlink).
    package var outsidePaths: [String] = []
    /// The `NSManagedObject` subclasses declared in the Swift files searched.
    package var managedObjectClasses: [ManagedObjectClass] = []
    /// Swift files not read for SwiftData schemas: over `SwiftDataLoader.sizeLimit`.
    package var tooLargeSwiftFiles: [String] = []
    /// In a gate run: what the change does to the configuration, lock file and baseline, against the revision.
    package var configurationChanges: [ConfigurationChange] = []
    /// The revision's configured levels (`rules`), for the rules that judge `configurationChanges`: the change
    /// cannot turn off the rule that reports it.
    package var revisionRuleLevels: [String: String] = [:]

    package init(
        bundles: [Bundle], lock: Lock? = nil, sourceReferences: [SourceReference] = [],
        goldenStores: [GoldenStore] = [],
        unreadablePaths: [String] = []
    ) {
        self.bundles = bundles
        self.lock = lock
        self.sourceReferences = sourceReferences
        self.goldenStores = goldenStores
        self.unreadablePaths = unreadablePaths
    }
}
