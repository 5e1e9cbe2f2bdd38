import ModelLintModel

package struct CloudKitRequiredAttributeRule: VersionRule {
    package init() {}

    package static let description = RuleDescription(
        id: "cloudkit-required-attribute", category: .cloudKit, severity: .error,
        summary: "a non-optional attribute without a default in a CloudKit-mirrored model",
        rationale: """
            CloudKit records can arrive without any field, so every attribute must be optional or have a default; otherwise NSPersistentCloudKitContainer refuses to load the store (134060). Checked on models with usedWithCloudKit="YES" on <model> (every entity) or on a <configuration> (its member entities), or with "cloudKit": true for the bundle in .modellint.json.
            """,
        fix: "make the attribute optional, or give it a default value",
        examples: [
            .triggering(
                """
                <entity name="Car">
                    ↓<attribute name="name" attributeType="String"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Car"/>
                </configuration>
                """),
            .passing(
                """
                <entity name="Car">
                    <attribute name="name" attributeType="String" defaultValueString=""/>
                    <attribute name="odometer" optional="YES" attributeType="Decimal"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Car"/>
                </configuration>
                """),
        ])

    package func check(_ model: Model, context: RuleContext) -> [Finding] {
        CloudKitScope.findings(in: model, context: context) { entity in
            entity.attributes.filter { !$0.isOptional && !$0.hasDefault && !$0.isTransient && !$0.isDerived }.map {
                ("\(entity.name).\($0.name) is required and has no default", $0.location, $0.name)
            }
        }
    }
}
