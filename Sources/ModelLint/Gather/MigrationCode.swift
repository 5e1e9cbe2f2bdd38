import ModelLintModel
import ModelLintProjects

/// The app's code that decides how a bundle's stores migrate and what a failure costs — its step-by-step migrators
/// and the code that destroys a store — and which bundles each is about: a file that loads models by name
/// (`NSPersistentContainer(name: "Shop")`, `"Shop 2.mom"`) is about those bundles only; one that names none, or
/// merges every bundle (`mergedModel(from:)`), cannot be told apart and counts for every bundle of the run.
package struct MigrationCode {
    private var migrators: [SourceReference] = []
    private var destroyers: [SourceReference] = []
    /// Per file with a migrator or a destroyer: the bundle and version names its code loads ("" for every bundle).
    private var namesLoaded: [String: Set<String>] = [:]

    package init(_ references: [SourceReference]) {
        for reference in references {
            switch reference.kind {
            case .stepMigrator: migrators.append(reference)
            case .storeDestroyer: destroyers.append(reference)
            default: break
            }
        }
        let files = Set((migrators + destroyers).map(\.location.file))
        for reference in references where files.contains(reference.location.file) {
            switch reference.kind {
            case .modelName(let name), .versionName(let name):
                namesLoaded[reference.location.file, default: []].insert(name)
            default: break
            }
        }
    }

    private func about(_ bundle: ModelBundle, _ references: [SourceReference]) -> [SourceReference] {
        references.filter { reference in
            guard let names = namesLoaded[reference.location.file] else { return true }
            return names.contains("") || names.contains(bundle.name)
                || bundle.versions.contains { names.contains($0.name) }
        }
    }

    /// The migrators whose code may migrate `bundle`'s stores.
    package func migrating(_ bundle: ModelBundle) -> [SourceReference] { about(bundle, migrators) }

    /// The code that may destroy `bundle`'s stores (when they fail to open, in every app seen).
    package func destroying(_ bundle: ModelBundle) -> [SourceReference] { about(bundle, destroyers) }
}
