import ModelLintSupport
import ModelLintModel

package struct SkipVersionUpgradeRule: PairSetRule {
    package init() {}

    package static let description = RuleDescription(
        id: "skip-version-upgrade", category: .changes, severity: .error,
        summary: "a problem that appears only when an older version migrates directly to the current one",
        rationale: """
            Core Data has no notion of version order: a store of any older version is migrated in one hop to the \
            current model (NSPersistentContainer's default). A user who skipped updates gets an inferred mapping between \
            versions that were never adjacent. Example that passes every adjacent check and still bricks the store: v1 \
            `price: String`, v2 removes `price`, v3 adds `price: Integer 64`; a v1 store maps `price` to `price` and the \
            types are incompatible. Reported once per problem, at the severity of the underlying rule, listing every \
            affected older version.
            """,
        fix:
            "keep identifiers and types consistent across the whole history (give a reused name a new Renaming ID), or migrate progressively (`--migration progressive` once the app steps through versions)",
        examples: [
            RuleExample(
                versions: [
                    (
                        "Near 1",
                        .model(
                            "<entity name=\"Item\"><attribute name=\"price\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        )
                    ),
                    ("Near 2", .model("<entity name=\"Item\"/>")),
                    (
                        "Near 3",
                        .model(
                            "<entity name=\"Item\">↓<attribute name=\"price\" optional=\"YES\" attributeType=\"Integer 64\" usesScalarValueType=\"YES\"/></entity>"
                        )
                    ),
                ],
                triggers: true),
            RuleExample(
                versions: [
                    (
                        "Near 1",
                        .model(
                            "<entity name=\"Item\"><attribute name=\"price\" optional=\"YES\" attributeType=\"String\"/></entity>"
                        )
                    ),
                    ("Near 2", .model("<entity name=\"Item\"/>")),
                    (
                        "Near 3",
                        .model(
                            "<entity name=\"Item\"><attribute name=\"amount\" optional=\"YES\" attributeType=\"Integer 64\" usesScalarValueType=\"YES\"/></entity>"
                        )
                    ),
                ],
                triggers: false),
        ])

    /// Problems only a device that skipped versions meets: one finding each, listing every affected version.
    package func check(_ pairs: ComparedPairFindings) -> [PairSetFinding] {
        var order: [String] = []
        var groups: [String: [ComparedPairFindings.DirectFinding]] = [:]
        for found in pairs.direct where !pairs.onUnmappedSteps.contains(found.key) {
            if groups[found.key] == nil { order.append(found.key) }
            groups[found.key, default: []].append(found)
        }
        let positions = ReportText.positions(in: pairs.migratingDirectly)
        return order.compactMap { key in
            guard let affected = groups[key], let first = affected.first else { return nil }
            var seen = Set<String>()
            let versions = affected.map(\.from).filter { seen.insert($0).inserted }
            // Core Data picks a mapping model for any pair whose hashes contain the ones it records: one may cover
            // these stores too, or only its own step.
            let covering = affected.compactMap(\.mappingModel).reduce(into: [String]()) {
                if !$0.contains($1) { $0.append($1) }
            }
            let mapped: String
            if !covering.isEmpty, affected.allSatisfy({ $0.mappingModel != nil }) {
                mapped =
                    " (covered by the mapping model\(covering.count == 1 ? "" : "s") \(ReportText.list(covering)), which Core Data picks for these stores too: the entity hashes \(covering.count == 1 ? "it records are" : "they record are") in theirs)"
            } else {
                mapped =
                    pairs.coveredBy[key].map {
                        " (the mapping model\($0.count == 1 ? "" : "s") \(ReportText.list($0)) \($0.count == 1 ? "is" : "are") not picked for these stores: the entity hashes \($0.count == 1 ? "it records are" : "they record are") not all in theirs)"
                    } ?? ""
            }
            // The problem first, in its own words; then who meets it, once, as ranges of versions.
            var finding = first.finding
            finding.message =
                "\(first.finding.message); only devices updating straight from \(ReportText.ranges(versions, positions: positions, or: true)) meet it\(mapped)"
            // As severe as the worst of the pairs that meet it.
            finding.severity = affected.map(\.severity).max()
            return PairSetFinding(
                finding: finding, fromVersion: first.from, underlyingRuleId: first.rule.id,
                // The underlying problem's own fix; and the way out when the app never migrates in one hop.
                fix: first.rule.fix
                    + "; or, if the app migrates step by step through every version, set \"migration\": \"progressive\"",
                affectedVersions: versions, mappingModel: first.mappingModel)
        }
    }
}
