import ModelLintModel
import ModelLintProjects

/// The app's step-by-step migrators, and which bundles each migrates: a file that loads models by name
/// (`NSPersistentContainer(name: "Shop")`, `"Shop 2.mom"`) migrates those bundles only; one that names none, or
/// merges every bundle (`mergedModel(from:)`), cannot be told apart and counts for every bundle of the run.
package struct StepMigrators {
    private var migrators: [SourceReference] = []
    /// Per file with a migrator: the bundle and version names its code loads ("" for every bundle).
    private var namesLoaded: [String: Set<String>] = [:]

    package init(_ references: [SourceReference]) {
        for reference in references {
            switch reference.kind {
            case .stepMigrator: migrators.append(reference)
            default: break
            }
        }
        let files = Set(migrators.map(\.location.file))
        for reference in references where files.contains(reference.location.file) {
            switch reference.kind {
            case .modelName(let name), .versionName(let name):
                namesLoaded[reference.location.file, default: []].insert(name)
            default: break
            }
        }
    }

    /// The migrators whose code may migrate `bundle`'s stores.
    package func migrating(_ bundle: ModelBundle) -> [SourceReference] {
        migrators.filter { migrator in
            guard let names = namesLoaded[migrator.location.file] else { return true }
            return names.contains("") || names.contains(bundle.name)
                || bundle.versions.contains { names.contains($0.name) }
        }
    }
}
