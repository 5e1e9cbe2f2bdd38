import ModelLintModel
import ModelLintDiff

package struct CloudKitNonAdditiveChangeRule: ChangeRule {
    package init() {}

    package static let description = RuleDescription(
        id: "cloudkit-non-additive-change", category: .cloudKit, severity: .error,
        summary:
            "between versions of a CloudKit-mirrored model: an entity or attribute removed or renamed, a type changed, an attribute made required",
        rationale: """
            Once a CloudKit schema is deployed to production it is additive only: records on the server and on other \
            devices still carry the old fields. Core Data itself refuses a renamed element ("CloudKit integration forbids \
            renaming"), and removals, type changes and newly required attributes break sync for every device on an older \
            build.
            """,
        fix:
            "only add: add a new entity or attribute, migrate the data in code, and stop using the old one (keep it in the model)",
        examples: [
            .triggering(
                before: """
                    <entity name="Note">
                        <attribute name="body" optional="YES" attributeType="String"/>
                        <attribute name="pinned" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
                    </entity>
                    <configuration name="Cloud" usedWithCloudKit="YES">
                        <memberEntity name="Note"/>
                    </configuration>
                    """,
                after: """
                    <entity name="Note">
                        ↓<attribute name="text" optional="YES" attributeType="String" elementID="body"/>
                        ↓<attribute name="pinned" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                    </entity>
                    <configuration name="Cloud" usedWithCloudKit="YES">
                        <memberEntity name="Note"/>
                    </configuration>
                    """),
            .passing(
                before: """
                    <entity name="Note">
                        <attribute name="body" optional="YES" attributeType="String"/>
                    </entity>
                    <configuration name="Cloud" usedWithCloudKit="YES">
                        <memberEntity name="Note"/>
                    </configuration>
                    """,
                after: """
                    <entity name="Note">
                        <attribute name="body" optional="YES" attributeType="String"/>
                        <attribute name="title" optional="YES" attributeType="String"/>
                    </entity>
                    <configuration name="Cloud" usedWithCloudKit="YES">
                        <memberEntity name="Note"/>
                    </configuration>
                    """),
        ])

    package func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding] {
        guard
            let scope = CloudKitScope.of(diff.to.model, context: context)
                ?? CloudKitScope.of(diff.from.model, context: context)
        else { return [] }
        let tail = "\(CloudKitScope.additiveOnly) (CloudKit rules are on: \(scope.reason))"
        var findings: [ChangeFinding] = []
        for entity in diff.removedEntities where scope.includes(entity) {
            findings.append(
                .change(
                    "entity \(entity.name) was removed \(diff.between): \(tail)", entity: entity))
        }
        for pair in diff.matchedEntities where scope.includes(pair.new) {
            if pair.old.name != pair.new.name {
                findings.append(
                    .change(
                        "entity \(pair.old.name) was renamed to \(pair.new.name) \(diff.between): \(tail)",
                        entity: pair.new))
            }
            for case .attribute(let attribute) in pair.removedProperties {
                findings.append(
                    .change(
                        "\(pair.old.name).\(attribute.name) was removed \(diff.between): \(tail)",
                        entity: pair.old, property: .attribute(attribute)))
            }
            for property in pair.changedProperties {
                guard let old = property.oldAttribute, let new = property.newAttribute else { continue }
                var what: [String] = []
                if old.name != new.name { what.append("was renamed from \(old.name)") }
                if old.type != new.type {
                    what.append("changed type from \(old.type.xmlValue) to \(new.type.xmlValue)")
                }
                if old.isOptional && !new.isOptional { what.append("became required") }
                guard !what.isEmpty else { continue }
                findings.append(
                    .change(
                        "\(pair.new.name).\(new.name) \(what.joined(separator: " and ")) \(diff.between): \(tail)",
                        entity: pair.new, property: property.new))
            }
        }
        return findings
    }
}
