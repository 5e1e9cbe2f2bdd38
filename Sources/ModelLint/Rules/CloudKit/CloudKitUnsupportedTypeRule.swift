public struct CloudKitUnsupportedTypeRule: VersionRule {
    public init() {}

    public static let description = RuleDescription(
        id: "cloudkit-unsupported-type", category: .cloudKit, severity: .error,
        summary: "an Undefined or ObjectID attribute in a CloudKit-mirrored model",
        rationale: """
            CloudKit has no field type for Undefined or ObjectID attributes; NSPersistentCloudKitContainer refuses to load a store whose model has one (134060). Checked on models with usedWithCloudKit="YES" on <model> (every entity) or on a <configuration> (its member entities), or with "cloudKit": true for the bundle in .modellint.json.
            """,
        fix: "store the value as a supported type (a URI for an object ID), or make the attribute transient",
        examples: [
            .triggering("""
                <entity name="Link">
                    ↓<attribute name="target" optional="YES" attributeType="ObjectID"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Link"/>
                </configuration>
                """),
            .passing("""
                <entity name="Link">
                    <attribute name="target" optional="YES" attributeType="URI"/>
                    <attribute name="scratch" optional="YES" transient="YES" attributeType="Undefined"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Link"/>
                </configuration>
                """),
        ])

    public func check(_ model: Model, context: RuleContext) -> [Finding] {
        guard let scope = CloudKitScope.of(model, context: context) else { return [] }
        var findings: [Finding] = []
        for entity in scope.entities(of: model) {
            for attribute in entity.attributes where !attribute.isTransient && (attribute.type == .undefined || attribute.type == .objectID) {
                findings.append(Finding("\(entity.name).\(attribute.name) has type \(attribute.type.xmlValue), which CloudKit cannot store: \(CloudKitScope.refusal) (CloudKit rules are on: \(scope.reason))",
                                        at: attribute.location, entity: entity.name, property: attribute.name))
            }
        }
        return findings
    }
}
