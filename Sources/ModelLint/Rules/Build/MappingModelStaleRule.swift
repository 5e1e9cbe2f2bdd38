import ModelLintSupport
import ModelLintModel

package struct MappingModelStaleRule: MappingModelRule {
    package init() {}

    private static let item =
        "<entity name=\"Item\"><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
    private static let itemWithNote =
        "<entity name=\"Item\"><attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"
    private static let itemWithNoteAndDate =
        "<entity name=\"Item\"><attribute name=\"added\" optional=\"YES\" attributeType=\"Date\"/><attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/></entity>"

    package static let description = RuleDescription(
        id: "mapping-model-stale", category: .build, severity: .error,
        summary:
            "a mapping model whose recorded source or destination entity hashes are in no version of the bundle (a warning when it covers no step between two shipped versions)",
        rationale: """
            An `.xcmappingmodel` embeds copies of the two models it was made from (`sourcemodeldata`, \
            `destinationmodeldata`), and Xcode compiles, for each entity mapping the mapping model lists, the source \
            and destination entity's hash from those copies. Core Data uses a mapping model for a store only when the \
            recorded source hashes are all among the store model's and the destination hashes among the destination \
            model's; the path names beside them are the editor's memory and decide nothing. An entity added since, or \
            one no mapping names, does not matter; a mapped entity edited after the mapping model was made no longer \
            equals the copy: Core Data never uses the mapping model, the migration is inferred instead (or fails, \
            134140), and the custom migration it was written for silently does not run. Where the copy does not \
            record a hashed fact (preserveAfterDeletion, derived attributes), the version is compared with it cleared.
            """,
        fix:
            "re-select the mapping model's source and destination versions in Xcode's mapping-model editor (it embeds them again), or delete it if the step no longer needs it",
        examples: [
            RuleExample(
                versions: [
                    ("Near 1", .model(item)), ("Near 2", .model(itemWithNoteAndDate)),
                ], triggers: true, expectedFile: "../Near1ToNear2.xcmappingmodel/xcmapping.xml"
            )
            .mapping("Near1ToNear2", from: "Near 1", to: "Near 2", embedding: (item, itemWithNote))
            .expectingMessage(
                "Near1ToNear2 records destination hashes that no version of Near has: Near 2, which its path names, has changed since (Item.added added). Core Data picks a mapping model by these hashes, so it never uses this one for Near 1 -> Near 2, and the custom migration it holds does not run"
            ),
            RuleExample(
                versions: [("Near 1", .model(item)), ("Near 2", .model(itemWithNote))], triggers: false
            )
            .mapping("Near1ToNear2", from: "Near 1", to: "Near 2", embedding: (item, itemWithNote)),
        ])

    package func check(
        _ mapping: UnmatchedMappingModel, bundle: ModelBundle, line: VersionLine, shipped: Set<ExactName>
    )
        -> [Finding]
    {
        let bundle = bundle.name
        func side(_ label: String, claimed: String?, differences: [String]?) -> String {
            guard let claimed else { return "\(label) hashes that no version of \(bundle) has" }
            guard let differences else {
                return
                    "\(label) hashes that no version of \(bundle) has (its path names \(claimed), which is no longer in the bundle)"
            }
            let shown = differences.count <= 3 ? differences : differences.prefix(3) + ["\(differences.count - 3) more"]
            return
                "\(label) hashes that no version of \(bundle) has: \(claimed), which its path names, has changed since (\(ReportText.list(Array(shown))))"
        }
        var sides: [String] = []
        if mapping.sourceMatches.isEmpty {
            sides.append(side("source", claimed: mapping.claimedSource, differences: mapping.sourceDifferences))
        }
        if mapping.destinationMatches.isEmpty {
            sides.append(
                side("destination", claimed: mapping.claimedDestination, differences: mapping.destinationDifferences))
        }
        let source = mapping.claimedSource ?? mapping.sourceMatches.last
        let destination = mapping.claimedDestination ?? mapping.destinationMatches.first
        let names = line.names
        let step = source.flatMap { s in destination.map { "\(s) -> \($0)" } }
        // It matters now when it was written for a step whose stores exist: from a shipped version to one at or
        // before the current one.
        var severity = Severity.warning
        if let source, let destination, let from = names.firstIndex(of: source),
            let to = names.firstIndex(of: destination),
            from < to, to <= line.currentPosition, shipped.contains(ExactName(source)) || from < line.currentPosition
        {
            severity = .error
        }
        let purpose = step.map { " for \($0)" } ?? ""
        // Reported with the version it was written to migrate to, when the bundle has it.
        return [
            Finding(
                "\(mapping.name) records \(sides.joined(separator: " and ")). Core Data picks a mapping model by these hashes, so it never uses this one\(purpose), and the custom migration it holds does not run",
                at: SourceLocation(file: mapping.path), severity: severity,
                version: destination.flatMap { names.contains($0) ? $0 : nil })
        ]
    }
}
