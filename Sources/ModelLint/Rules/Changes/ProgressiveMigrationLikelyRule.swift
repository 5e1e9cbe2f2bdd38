import ModelLintSupport
import ModelLintModel
import ModelLintProjects

/// Judges the bundle's mapping models against its steps; needs what the configuration says about migration.
public struct ProgressiveMigrationLikelyRule: MigrationStyleRule {
    public init() {}

    public static let description = RuleDescription(
        id: "progressive-migration-likely", category: .bundleStructure, severity: .warning,
        summary:
            "the app's code migrates stores step by step (a migration manager, or NSStagedMigrationManager), or mapping models cover at least half of the adjacent steps, and the configuration does not set `migration`",
        rationale: """
            Core Data migrates a store in one hop to the current model (direct), so modellint checks every older version \
            against the current one. An app whose code runs `NSMigrationManager.migrateStore(from:…)` or \
            `NSStagedMigrationManager`, or that ships a mapping model for each step, almost always migrates step by \
            step itself; then those direct comparisons (`skip-version-upgrade`, listed under this finding in the text \
            report) describe migrations that never run.
            """,
        fix:
            "set `\"migration\": \"progressive\"` in `.modellint.json` if the app steps through every version; otherwise set `\"migration\": \"direct\"` to say so",
        examples: [
            RuleExample(
                versions: [("Near 1", .model("<entity name=\"A\"/>")), ("Near 2", .model("<entity name=\"A\"/>"))],
                triggers: true
            )
            .mapping("Near1ToNear2", from: "Near 1", to: "Near 2"),
            .passing(before: "<entity name=\"A\"/>", after: "<entity name=\"A\"/>"),
        ])

    /// `steps`: the adjacent pairs of readable versions.
    public func check(
        _ bundle: ModelBundle, steps: [(from: String, to: String)], mappingModels: [MappingModel],
        stepMigrators: [SourceReference]
    ) -> [Finding] {
        let advice =
            "the direct older -> current comparisons do not apply to an app that migrates step by step; set \"migration\" in .modellint.json to say which"
        var finding: Finding
        // Direct pairs exist from three versions on: with fewer there is nothing the style changes.
        if steps.count >= 2, let migrator = stepMigrators.first, case .stepMigrator(let api) = migrator.kind {
            let place = migrator.location.line.map { "\(migrator.location.file):\($0)" } ?? migrator.location.file
            let how =
                api == "NSStagedMigrationManager" ? "NSStagedMigrationManager" : "\(api) with migrateStore(from:…)"
            finding = Finding(
                "the app's code migrates stores step by step (\(how) at \(place)): \(advice)",
                at: SourceLocation(file: bundle.path))
        } else {
            let covering = steps.compactMap { step in
                mappingModels.first { $0.source.isExactly(step.from) && $0.destination.isExactly(step.to) }?.name
            }
            guard !steps.isEmpty, !covering.isEmpty, covering.count * 2 >= steps.count else { return [] }
            let names =
                covering.count <= 3
                ? covering.joined(separator: ", ")
                : covering.prefix(3).joined(separator: ", ") + " and \(covering.count - 3) more"
            finding = Finding(
                "\(bundle.name).xcdatamodeld has mapping models for \(covering.count) of its \(steps.count) steps (\(names)): apps that ship a mapping model per step usually migrate step by step, and then the direct older -> current comparisons do not apply; set \"migration\" in .modellint.json to say which",
                at: SourceLocation(file: bundle.path))
        }
        finding.groups = [SkipVersionUpgradeRule.description.id]
        return [finding]
    }
}
