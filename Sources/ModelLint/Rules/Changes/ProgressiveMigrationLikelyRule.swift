import ModelLintSupport
import ModelLintModel

/// Judges the bundle's mapping models against its steps; needs what the configuration says about migration.
public struct ProgressiveMigrationLikelyRule: MigrationStyleRule {
    public init() {}

    public static let description = RuleDescription(
        id: "progressive-migration-likely", category: .bundleStructure, severity: .note,
        summary:
            "mapping models cover at least half of the adjacent steps and the configuration does not set `migration`",
        rationale: """
            Core Data migrates a store in one hop to the current model (direct), so modellint checks every older version \
            against the current one. An app that ships a mapping model for each step, though, almost always migrates step \
            by step itself; then those direct comparisons (`skip-version-upgrade`) describe migrations that never run.
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
    public func check(_ bundle: ModelBundle, steps: [(from: String, to: String)], mappingModels: [MappingModel])
        -> [Finding]
    {
        let covering = steps.compactMap { step in
            mappingModels.first { $0.source.isExactly(step.from) && $0.destination.isExactly(step.to) }?.name
        }
        guard !steps.isEmpty, !covering.isEmpty, covering.count * 2 >= steps.count else { return [] }
        let names =
            covering.count <= 3
            ? covering.joined(separator: ", ")
            : covering.prefix(3).joined(separator: ", ") + " and \(covering.count - 3) more"
        return [
            Finding(
                "\(bundle.name).xcdatamodeld has mapping models for \(covering.count) of its \(steps.count) steps (\(names)): apps that ship a mapping model per step usually migrate step by step, and then the direct older -> current comparisons do not apply; set \"migration\" in .modellint.json to say which",
                at: SourceLocation(file: bundle.path))
        ]
    }
}
