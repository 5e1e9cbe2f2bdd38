import ModelLintModel
import ModelLintHistory
import ModelLintStores
import ModelLintRules
import ModelLintGather

/// Judges a store's metadata against a bundle: which version wrote it, and what migrating it to the current
/// version does (the change findings of that path, in the migration mode), then the store rules. No I/O: the
/// metadata and the bundle are read before.
package struct StoreVerifier: Sendable {
    package var configuration: Configuration
    package var migration: MigrationMode
    /// The run's rules: the store rules judge the store, the change rules the migration path.
    package var rules: RuleSet

    package init(configuration: Configuration, migration: MigrationMode? = nil, rules: RuleSet) {
        self.configuration = configuration
        self.migration = migration ?? configuration.migration
        self.rules = rules
    }

    /// `golden`: for a golden store, the versions all of the bundle's golden stores were written by, and whether
    /// this is the last of them.
    package func verify(
        _ metadata: StoreMetadata, path: String, against bundle: ModelBundle, settings: BundleSettings?, isGolden: Bool,
        golden: (covered: Set<String>, isLast: Bool)? = nil, mappingModels: [MappingModel] = [],
        otherBundles: [ModelBundle] = []
    ) -> [Diagnostic] {
        let source = bundle.readableVersions
        let current = VersionLine(bundle).current
        let matching = metadata.matchingVersions(source)
        var migrationFindings: [Diagnostic] = []
        if !isGolden, let from = matching.first, let current,
            let start = source.firstIndex(where: { $0.name == from.name }),
            let end = source.firstIndex(where: { $0.name == current.name }), start < end
        {
            // Direct: the one hop Core Data makes; progressive: every step.
            let path = migration == .direct ? [source[start], source[end]] : Array(source[start...end])
            let consecutive = migration == .direct ? [end == start + 1] : Array(repeating: true, count: end - start)
            migrationFindings = Linter(configuration: configuration, rules: rules.all, migration: migration)
                .migrationFindings(
                    along: path, consecutive: consecutive, bundlePath: bundle.path, settings: settings,
                    mappingModels: mappingModels, source: bundle.source)
        }
        // No version wrote it: Core Data takes the source model from the store's own cache (docs/core-data.md
        // "When a store migrates") when that model is the store's (its hashes are the recorded ones), and infers one hop from it.
        // A merged model's store: this bundle describes only part of it, so no migration of it is judged here.
        // Merged only when the store's other entities are in no version of this bundle: an entity this bundle has,
        // with another hash, says the version was edited in place since it wrote the store.
        let names = Set(source.flatMap { $0.model.versionHashes.entities.keys })
        let merged =
            matching.isEmpty
            ? metadata.mergedFrom(source).flatMap { m in
                m.others.contains(where: names.contains) ? nil : m
            } : nil
        var fromCache = false
        var unusableCache: String?
        if !isGolden, matching.isEmpty, merged == nil, let current, let cached = metadata.cachedModel,
            cached.versionHashes.entities == metadata.entityHashes
        {
            fromCache = true
            let source = VersionRef(name: "the store's model (Z_MODELCACHE)", contentsPath: path, model: cached)
            migrationFindings = Linter(configuration: configuration, rules: rules.all, migration: migration)
                .migrationFindings(
                    along: [source, current], consecutive: [false], bundlePath: bundle.path, settings: settings,
                    mappingModels: [], source: bundle.source)
        } else if !isGolden, matching.isEmpty, merged == nil {
            if let cached = metadata.cachedModel {
                let computed = cached.versionHashes.entities
                let differing = Set(computed.keys).union(metadata.entityHashes.keys).filter {
                    computed[$0] != metadata.entityHashes[$0]
                }.sorted(by: CoreDataHash.precedes)
                unusableCache =
                    "it reads, but the hashes modellint computes for it differ from the recorded ones in \(BuildText.list(differing))"
            } else {
                unusableCache = metadata.unreadableModelCache
            }
        }
        var check = StoreCheck(
            path: path, metadata: metadata, bundle: bundle.path, current: current, matching: matching,
            nearest: matching.isEmpty ? metadata.nearest(source) : nil, migration: migrationFindings, isGolden: isGolden
        )
        check.versions = source
        // A golden store alone (a rule example) covers what it matches.
        check.coveredVersions = golden?.covered ?? Set(matching.map(\.name))
        check.isLastGolden = golden?.isLast ?? isGolden
        check.migratesFromCache = fromCache
        check.unusableModelCache = unusableCache
        if let merged {
            // The other bundles' versions whose every entity is one of the store's others, hash for hash.
            let others = Set(merged.others)
            let elsewhere = otherBundles.flatMap { other in
                other.readableVersions.filter { version in
                    let hashes = version.model.versionHashes.entities
                    return !hashes.isEmpty
                        && hashes.allSatisfy { others.contains($0.key) && metadata.entityHashes[$0.key] == $0.value }
                }.map { (bundle: other.path, version: $0.name) }
            }
            check.merged = (merged.version, merged.others, elsewhere)
        }
        let context = RuleContext(
            cloudKitOverride: settings?.cloudKit, retired: settings?.retired ?? [], migration: migration)
        var diagnostics = migrationFindings
        var facts = ResolutionFacts(configuration: configuration, bundlePath: bundle.path)
        facts.source = bundle.source
        for rule in rules.store {
            diagnostics += facts.resolve(rule.description, rule.check(check, context: context))
        }
        return diagnostics
    }
}
