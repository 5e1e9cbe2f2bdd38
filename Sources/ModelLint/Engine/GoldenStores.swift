import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintStores
import ModelLintRules
import ModelLintGather

/// `goldenStores` in `check`: the store fixtures the configuration names, each read and judged against the
/// bundle whose version wrote it (or, when none did, the bundle it most resembles).
package enum GoldenStores {
    /// `bundles`: the run's bundles as loaded and ordered; `stores`: the golden stores, read; `migration`: how each
    /// bundle's stores migrate.
    package static func findings(
        for bundles: [LintInput.Bundle], stores: [LintInput.GoldenStore], configuration: Configuration,
        migration: [MigrationMode], rules: RuleSet
    ) -> [Diagnostic] {
        guard !bundles.isEmpty else { return [] }
        var byBundle: [Int: [LintInput.GoldenStore]] = [:]
        for store in stores {
            byBundle[owner(of: store.metadata, among: bundles.map(\.bundle)), default: []].append(store)
        }
        var diagnostics: [Diagnostic] = []
        for (index, stores) in byBundle.sorted(by: { $0.key < $1.key }) {
            let bundle = bundles[index].bundle
            let models = bundle.readableVersions
            let covered = Set(stores.flatMap { $0.metadata.matchingVersions(models).map(\.name) })
            for (i, store) in stores.enumerated() {
                diagnostics += StoreVerifier(configuration: configuration, migration: migration[index], rules: rules)
                    .verify(
                        store.metadata, path: store.path, against: bundle, settings: bundles[index].settings,
                        isGolden: true,
                        golden: (covered, i == stores.count - 1), mappingModels: bundles[index].mappingModels)
            }
        }
        return diagnostics
    }

    /// The bundle with a version that wrote the store; else the one sharing most entity names with it.
    package static func owner(of metadata: StoreMetadata, among bundles: [ModelBundle]) -> Int {
        if let exact = bundles.firstIndex(where: {
            $0.versions.contains { $0.model?.versionHashes.entities == metadata.entityHashes }
        }) {
            return exact
        }
        let names = Set(metadata.entityHashes.keys)
        let overlap = bundles.map { bundle in
            bundle.versions.compactMap(\.model).map { Set($0.entities.map(\.name)).intersection(names).count }.max()
                ?? 0
        }
        return overlap.indices.max { (overlap[$0], -$0) < (overlap[$1], -$1) } ?? 0
    }
}
