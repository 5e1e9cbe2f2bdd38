import ModelLintModel
import ModelLintDiff

package struct CloudKitEncryptionChangedRule: ChangeRule {
    package init() {}

    package static let description = RuleDescription(
        id: "cloudkit-encryption-changed", category: .cloudKit, severity: .error,
        summary:
            "between versions of a CloudKit-mirrored model: `allowsCloudEncryption` changed on an existing attribute",
        rationale: """
            An encrypted CloudKit field is a different field type on the server. Changing `allowsCloudEncryption` on an \
            attribute already in the production schema is not additive: CloudKit rejects the schema, and sync stops.
            """,
        fix: "add a new attribute with the encryption you want, copy the values in code, and stop using the old one",
        examples: [
            .triggering(
                before:
                    "<entity name=\"Profile\"><attribute name=\"encoded\" optional=\"YES\" attributeType=\"String\"/></entity>\n<configuration name=\"Cloud\" usedWithCloudKit=\"YES\"><memberEntity name=\"Profile\"/></configuration>",
                after:
                    "<entity name=\"Profile\">↓<attribute name=\"encoded\" optional=\"YES\" attributeType=\"String\" allowsCloudEncryption=\"YES\"/></entity>\n<configuration name=\"Cloud\" usedWithCloudKit=\"YES\"><memberEntity name=\"Profile\"/></configuration>"
            ),
            .passing(
                before:
                    "<entity name=\"Profile\"><attribute name=\"encoded\" optional=\"YES\" attributeType=\"String\"/></entity>",
                after:
                    "<entity name=\"Profile\"><attribute name=\"encoded\" optional=\"YES\" attributeType=\"String\" allowsCloudEncryption=\"YES\"/></entity>"
            ),
        ])

    package func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding] {
        guard
            let scope = CloudKitScope.of(diff.to.model, context: context)
                ?? CloudKitScope.of(diff.from.model, context: context)
        else { return [] }
        return diff.matchedEntities.filter { scope.includes($0.new) }.flatMap { pair in
            pair.changedProperties.compactMap { property in
                guard property.facets.contains(.cloudEncryption), let new = property.newAttribute else { return nil }
                return .change(
                    "\(property.label) \(new.allowsCloudEncryption ? "turned on" : "turned off") allowsCloudEncryption \(diff.between): \(CloudKitScope.additiveOnly) (CloudKit rules are on: \(scope.reason))",
                    entity: pair.new, property: property.new)
            }
        }
    }
}
