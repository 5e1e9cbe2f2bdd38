import ModelLintModel
import ModelLintDiff

package struct IndexChangedWithoutHashChangeRule: ChangeRule {
    package init() {}

    package static let description = RuleDescription(
        id: "index-changed-without-hash-change", category: .changes, severity: .note,
        summary: "indexes changed while no entity hash changed",
        rationale: """
            Indexes are not part of the version hashes: `<fetchIndex>` elements, legacy `<compoundIndexes>`, and the \
            `indexed` flag of attributes and relationships. When nothing else in the model changed, existing stores match \
            the new model, no migration runs, and they may never get the new index. (When some entity's hash changed, \
            the migration rebuilds the store and the index comes with it.)
            """,
        fix:
            "bump the entity's Version Hash Modifier (`versionHashModifier`) so existing stores migrate and get the index",
        swiftDataFix:
            "change the hash of one of the entity's properties (`@Attribute(hashModifier: \"2\")`) so existing stores migrate and get the index",
        examples: [
            .triggering(
                before:
                    "<entity name=\"Car\"><attribute name=\"order\" attributeType=\"Integer 32\" defaultValueString=\"0\" usesScalarValueType=\"YES\"/></entity>",
                after: """
                    ↓<entity name="Car">
                        <attribute name="order" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                        <fetchIndex name="byOrderIndex">
                            <fetchIndexElement property="order" type="Binary" order="ascending"/>
                        </fetchIndex>
                    </entity>
                    """),
            .triggering(
                before:
                    "<entity name=\"Car\"><attribute name=\"plate\" optional=\"YES\" attributeType=\"String\"/></entity>",
                after:
                    "<entity name=\"Car\">↓<attribute name=\"plate\" optional=\"YES\" attributeType=\"String\" indexed=\"YES\"/></entity>"
            ),
            .passing(
                before:
                    "<entity name=\"Car\"><attribute name=\"order\" attributeType=\"Integer 32\" defaultValueString=\"0\" usesScalarValueType=\"YES\"/></entity>",
                after: """
                    <entity name="Car" versionHashModifier="2">
                        <attribute name="order" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                        <fetchIndex name="byOrderIndex">
                            <fetchIndexElement property="order" type="Binary" order="ascending"/>
                        </fetchIndex>
                    </entity>
                    """),
        ])

    package func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding] {
        let changed = diff.matchedEntities.filter { pair in
            pair.facets.contains(.indexes) || pair.changedProperties.contains { $0.facets.contains(.indexed) }
        }
        // Hashes are worked out only when asked for: after what changed.
        guard !changed.isEmpty,
            diff.from.model.versionHashes.entities == diff.to.model.versionHashes.entities
        else { return [] }
        let tail =
            "\(diff.between), but no entity's version hash changed: existing stores do not migrate and may never get the index"
        return changed.flatMap { pair -> [ChangeFinding] in
            var found: [ChangeFinding] = []
            if pair.facets.contains(.indexes) {
                found.append(.change("\(pair.new.name)'s indexes changed \(tail)", entity: pair.new))
            }
            for property in pair.changedProperties where property.facets.contains(.indexed) {
                let on = property.newAttribute?.isIndexed ?? property.newRelationship?.isIndexed ?? false
                found.append(
                    .change(
                        "\(property.label) \(on ? "became indexed" : "stopped being indexed") \(tail)",
                        entity: pair.new, property: property.new))
            }
            return found
        }
    }
}
