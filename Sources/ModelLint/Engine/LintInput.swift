import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Everything `check` judges, already found and read (`Workspace` in the commands does that): the linter
/// takes this and touches neither the file system nor git.
public struct LintInput: Sendable {
    /// One bundle of the run, loaded, validated against its settings and ordered.
    public struct Bundle: Sendable {
        public var bundle: ModelBundle
        public var settings: BundleSettings?
        /// The mapping models that name this bundle's versions.
        public var mappingModels: [MappingModel]
        /// The mapping models that claim this bundle but embed models equal to none of its versions.
        public var unmatchedMappingModels: [UnmatchedMappingModel]
        /// The mapping model files both were matched from: `--only-new` matches them against the bundle at REF.
        public var mappingModelSources: [MappingModelSource]
        /// The shipped-version records that apply to it (lock file, `--against`, `--released`).
        public var histories: [ShippedHistory]
        /// The Xcode projects that reference it, each with the bundle's path relative to the project's folder.
        public var projects: [(project: XcodeProject, bundlePath: String)]
        /// Set when the bundle is a SwiftData schema set read from Swift files.
        public var swiftData: SwiftSchemaSet?
        /// The folder whose Swift files it was read from (absolute): where a revision's files are read from too.
        public var swiftDataRoot: String?

        /// A SwiftData schema set, judged as a bundle whose custom stages cover their steps as mapping models do.
        public init(swiftData set: SwiftSchemaSet, settings: BundleSettings? = nil, histories: [ShippedHistory] = []) {
            self.init(bundle: set.bundle, settings: settings, mappingModels: set.customStages, histories: histories)
            swiftData = set
        }

        public init(
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
    public struct Lock: Sendable {
        public var file: LockFile
        /// As displayed.
        public var path: String
        public var bundleKeysOnDisk: Set<ExactName>
        /// Judge the entries even when no bundle is linted: a commit deletes a locked bundle.
        public var judgedWithoutBundles = false

        public init(file: LockFile, path: String, bundleKeysOnDisk: Set<ExactName>) {
            self.file = file
            self.path = path
            self.bundleKeysOnDisk = bundleKeysOnDisk
        }
    }

    /// A golden store named by `goldenStores`, its metadata read.
    public struct GoldenStore: Sendable {
        /// As displayed.
        public var path: String
        public var metadata: StoreMetadata

        public init(path: String, metadata: StoreMetadata) {
            self.path = path
            self.metadata = metadata
        }
    }

    public var bundles: [Bundle]
    public var lock: Lock?
    /// The references to the model found in the Swift files of the bundles' trees.
    public var sourceReferences: [SourceReference]
    public var goldenStores: [GoldenStore]
    /// Paths under the searched folders that could not be read (reported, never fatal).
    public var unreadablePaths: [String]
    /// Files found in the tree but not read: they resolve outside it (a committed symlink).
    public var outsidePaths: [String] = []
    /// The `NSManagedObject` subclasses declared in the Swift files searched.
    public var managedObjectClasses: [ManagedObjectClass] = []
    /// Swift files not read for SwiftData schemas: over `SwiftDataLoader.sizeLimit`.
    public var tooLargeSwiftFiles: [String] = []

    public init(
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
