public struct CloudKitRequiredAttributeRule: VersionRule {
    public init() {}

    public static let description = RuleDescription(
        id: "cloudkit-required-attribute", category: .cloudKit, severity: .error,
        summary: "a non-optional attribute without a default in a CloudKit-mirrored model",
        rationale: """
            CloudKit records can arrive without any field, so every attribute must be optional or have a default; otherwise NSPersistentCloudKitContainer refuses to load the store (134060). Checked on models with usedWithCloudKit="YES" on <model> (every entity) or on a <configuration> (its member entities), or with "cloudKit": true for the bundle in .modellint.json.
            """,
        fix: "make the attribute optional, or give it a default value",
        examples: [
            .triggering("""
                <entity name="Car">
                    ↓<attribute name="name" attributeType="String"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Car"/>
                </configuration>
                """),
            .passing("""
                <entity name="Car">
                    <attribute name="name" attributeType="String" defaultValueString=""/>
                    <attribute name="odometer" optional="YES" attributeType="Decimal"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Car"/>
                </configuration>
                """),
        ])

    public func check(_ model: Model, context: RuleContext) -> [Finding] {
        guard let scope = CloudKitScope.of(model, context: context) else { return [] }
        var findings: [Finding] = []
        for entity in scope.entities(of: model) {
            for attribute in entity.attributes where !attribute.isOptional && !attribute.hasDefault && !attribute.isTransient && !attribute.isDerived {
                findings.append(Finding("\(entity.name).\(attribute.name) is required and has no default: \(CloudKitScope.refusal) (CloudKit rules are on: \(scope.reason))",
                                        at: attribute.location, entity: entity.name, property: attribute.name))
            }
        }
        return findings
    }
}
