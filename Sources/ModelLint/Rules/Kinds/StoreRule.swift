import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges a Core Data store (its metadata, already read) against the bundle: which version wrote it, and what
/// migrating it to the current version does (the change findings of that migration, already worked out).
package protocol StoreRule: Rule {
    func check(_ store: StoreCheck, context: RuleContext) -> [Finding]
}

/// Everything a store rule sees: the store's metadata and where it matches the bundle.
package struct StoreCheck: Sendable {
    /// The store file as displayed.
    package var path: String
    package var metadata: StoreMetadata
    package var bundle: String
    package var current: VersionRef?
    /// The versions whose entity hashes equal the store's (empty: none wrote it).
    package var matching: [VersionRef]
    /// When none matches: the version with most equal entity hashes, and the entities that differ.
    package var nearest: (version: VersionRef, differing: [String])?
    /// The change findings of migrating the store from its version to the current one, in the migration mode.
    package var migration: [Diagnostic]
    /// Whether this store is a golden fixture named in the configuration (`goldenStores`).
    package var isGolden: Bool
    /// The bundle's readable versions, in order.
    package var versions: [VersionRef] = []
    /// For golden stores: the versions every golden store of this bundle was written by, and whether this is
    /// the bundle's last golden store (rules about the whole set judge it once).
    package var coveredVersions: Set<String> = []
    package var isLastGolden = false
    /// No version wrote the store, and it caches the model that did (`Z_MODELCACHE`, its hashes the store's):
    /// Core Data migrates it from that model, and `migration` holds what that migration finds.
    package var migratesFromCache = false
    /// No version wrote the store and it caches a model, but modellint cannot use it: why (it did not read, or the
    /// hashes computed for it are not the recorded ones). Core Data may still open the store with it.
    package var unusableModelCache: String?
    /// Written by a model merged from a version of this bundle and other models: that version, the store's
    /// other entities, and the versions of other bundles of the repository those entities match exactly.
    package var merged: (version: VersionRef, others: [String], elsewhere: [(bundle: String, version: String)])?

    package init(
        path: String, metadata: StoreMetadata, bundle: String, current: VersionRef?, matching: [VersionRef],
        nearest: (version: VersionRef, differing: [String])?, migration: [Diagnostic], isGolden: Bool
    ) {
        self.path = path
        self.metadata = metadata
        self.bundle = bundle
        self.current = current
        self.matching = matching
        self.nearest = nearest
        self.migration = migration
        self.isGolden = isGolden
    }
}

extension StoreRule { package var kind: RuleKind { .store(self) } }
