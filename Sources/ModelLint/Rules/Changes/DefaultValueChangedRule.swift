import ModelLintModel
import ModelLintDiff

package struct DefaultValueChangedRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "default-value-changed", category: .changes, severity: .note,
        summary: "the default value changed",
        rationale:
            "Defaults are not part of any hash: existing objects keep their values, and only new objects get the new default.",
        fix: "nothing to do, unless existing objects should get the new value too (then update them explicitly)",
        examples: [
            .triggering(
                before:
                    "<entity name=\"Settings\"><attribute name=\"volume\" attributeType=\"Integer 16\" defaultValueString=\"5\" usesScalarValueType=\"YES\"/></entity>",
                after:
                    "<entity name=\"Settings\">↓<attribute name=\"volume\" attributeType=\"Integer 16\" defaultValueString=\"7\" usesScalarValueType=\"YES\"/></entity>"
            ),
            .passing(
                before:
                    "<entity name=\"Settings\"><attribute name=\"volume\" attributeType=\"Integer 16\" defaultValueString=\"5\" usesScalarValueType=\"YES\"/></entity>",
                after:
                    "<entity name=\"Settings\"><attribute name=\"volume\" attributeType=\"Integer 16\" defaultValueString=\"5\" usesScalarValueType=\"YES\"/></entity>"
            ),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.changedProperties.compactMap { pair in
            guard pair.facets.contains(.defaultValue), let old = pair.oldAttribute, let new = pair.newAttribute else {
                return nil
            }
            func describe(_ a: Attribute) -> String {
                if let value = a.defaultValueString {
                    return "\"\(value)\""
                        + (a.type == .date ? CoreDataDate.iso8601(value).map { " (\($0))" } ?? "" : "")
                }
                if let interval = a.defaultDateTimeInterval {
                    return "\(interval) s" + (CoreDataDate.iso8601(interval).map { " (\($0))" } ?? "")
                }
                return "none"
            }
            return .change(
                "\(pair.label) default changed from \(describe(old)) to \(describe(new)) \(versions.between); it affects new objects only",
                entity: entity.new, property: pair.new)
        }
    }
}
