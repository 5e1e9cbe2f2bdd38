import ModelLintSupport
import ModelLintModel
import ModelLintProjects

/// Judges the bundle's mapping models against its steps; needs what the configuration says about migration.
package struct ProgressiveMigrationLikelyRule: MigrationStyleRule {
    package init() {}

    package static let description = RuleDescription(
        id: "progressive-migration-likely", category: .bundleStructure, severity: .warning,
        summary:
            "how the app migrates is not configured: its code migrates stores step by step (a note: only its steps are compared), or mapping models cover at least half of the adjacent steps (a warning: nothing decides)",
        rationale: """
            Core Data migrates a store in one hop to the current model (direct), so without other evidence modellint \
            checks every older version against the current one. An app whose code turns that off and runs \
            `NSMigrationManager.migrateStore(from:…)` (Swift) or `migrateStoreFromURL:…` (Objective-C) over the \
            versions, or `NSStagedMigrationManager`, migrates step by step: the direct pairs never run, so modellint \
            compares only the steps and says so in a note. An app that only ships a mapping model for most steps \
            probably migrates step by step too, but nothing in its code says so: then the direct comparisons \
            (`skip-version-upgrade`, listed under this warning in the text report) stay, and the warning asks you to \
            say which. The configuration's `migration` (top level, or per bundle) always wins over the code.
            """,
        fix:
            "set `\"migration\": \"progressive\"` in `.modellint.json` (top level, or under the bundle's key in `bundles`) if the app steps through every version; set `\"migration\": \"direct\"` if stores also open directly in the current model",
        examples: [
            RuleExample(
                versions: [("Near 1", .model("<entity name=\"A\"/>")), ("Near 2", .model("<entity name=\"A\"/>"))],
                triggers: true
            )
            .mapping("Near1ToNear2", from: "Near 1", to: "Near 2"),
            .passing(before: "<entity name=\"A\"/>", after: "<entity name=\"A\"/>"),
        ])

    /// `steps`: the adjacent pairs of readable versions; `stepMigrators`: the app's code that migrates this bundle
    /// step by step (then the engine already compares only the steps, and this says why).
    package func check(
        _ bundle: ModelBundle, steps: [(from: String, to: String)], mappingModels: [MappingModel],
        stepMigrators: [SourceReference]
    ) -> [Finding] {
        var finding: Finding
        // Direct pairs exist from three versions on: with fewer there is nothing the style changes.
        if steps.count >= 2, let migrator = stepMigrators.first, case .stepMigrator(let api) = migrator.kind {
            let place = migrator.location.line.map { "\(migrator.location.file):\($0)" } ?? migrator.location.file
            let objectiveC = migrator.location.file.hasSuffix(".m") || migrator.location.file.hasSuffix(".mm")
            let how =
                api == "NSStagedMigrationManager"
                ? api : "\(api) with " + (objectiveC ? "migrateStoreFromURL:…" : "migrateStore(from:…)")
            finding = Finding(
                "the app's code migrates stores step by step (\(how) at \(place)), so only each version's step to the next is compared: the direct older -> current migrations never run in this app; if its stores also open directly in the current model, set \"migration\": \"direct\" in .modellint.json",
                at: SourceLocation(file: bundle.path), severity: .note)
            finding.identity = "the code decides"
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
            finding.identity = "mapping models suggest"
        }
        finding.groups = [SkipVersionUpgradeRule.description.id]
        return [finding]
    }
}
