import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintStores
import ModelLintRules

/// `goldenStores` in `check`: the store fixtures the configuration names, each read and judged against the
/// bundle whose version wrote it (or, when none did, the bundle it most resembles).
package enum GoldenStores {
    package struct UnreadableStore: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) {
            self.description = description
        }
    }

    /// `bundles`: the run's bundles as the linter loaded and ordered them.
    package static func findings(for bundles: [ModelBundle], configuration: Configuration, workingDirectory: String, migration: MigrationMode) throws -> [Diagnostic] {
        guard !configuration.goldenStores.isEmpty else { return [] }
        let base = configuration.baseDirectory
        var files: [String] = []
        DirectoryWalker().walk(base, file: { path, _ in
            let relative = PathTools.relative(path, to: base) ?? path
            if configuration.goldenStores.contains(where: { Glob.matches(pattern: $0, path: relative) }) { files.append(path) }
        }) { _, name in name != ".git" && name != ".build" }
        guard !bundles.isEmpty else { return [] }
        var byBundle: [Int: [(path: String, metadata: StoreMetadata)]] = [:]
        for file in files.sorted() {
            let metadata: StoreMetadata
            do { metadata = try StoreMetadata.read(path: file) } catch {
                throw UnreadableStore(description: "golden store \(PathTools.display(file, relativeTo: workingDirectory)) cannot be read: \(error)")
            }
            byBundle[owner(of: metadata, among: bundles), default: []].append((PathTools.display(file, relativeTo: workingDirectory), metadata))
        }
        var diagnostics: [Diagnostic] = []
        for (index, stores) in byBundle.sorted(by: { $0.key < $1.key }) {
            let bundle = bundles[index]
            let models = bundle.readableVersions
            let covered = Set(stores.flatMap { $0.metadata.matchingVersions(models).map(\.name) })
            let settings = configuration.settings(forBundleAt: PathTools.absolute(bundle.path, relativeTo: workingDirectory))
            for (i, store) in stores.enumerated() {
                diagnostics += StoreVerifier(configuration: configuration, migration: migration).verify(
                    store.metadata, path: store.path, against: bundle, settings: settings, isGolden: true,
                    golden: (covered, i == stores.count - 1))
            }
        }
        return diagnostics
    }

    /// The bundle with a version that wrote the store; else the one sharing most entity names with it.
    package static func owner(of metadata: StoreMetadata, among bundles: [ModelBundle]) -> Int {
        if let exact = bundles.firstIndex(where: { $0.versions.contains { $0.model?.versionHashes.entities == metadata.entityHashes } }) { return exact }
        let names = Set(metadata.entityHashes.keys)
        let overlap = bundles.map { bundle in bundle.versions.compactMap(\.model).map { Set($0.entities.map(\.name)).intersection(names).count }.max() ?? 0 }
        return overlap.indices.max { (overlap[$0], -$0) < (overlap[$1], -$1) } ?? 0
    }
}
