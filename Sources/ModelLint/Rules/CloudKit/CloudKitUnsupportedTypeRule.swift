import ModelLintModel

package struct CloudKitUnsupportedTypeRule: VersionRule {
    package init() {}

    package static let description = RuleDescription(
        id: "cloudkit-unsupported-type", category: .cloudKit, severity: .error,
        summary: "an Undefined or ObjectID attribute in a CloudKit-mirrored model",
        rationale: """
            CloudKit has no field type for Undefined or ObjectID attributes; NSPersistentCloudKitContainer refuses to load a store whose model has one (134060). Checked on models with usedWithCloudKit="YES" on <model> (every entity) or on a <configuration> (its member entities), or with "cloudKit": true for the bundle in .modellint.json.
            """,
        fix: "store the value as a supported type (a URI for an object ID), or make the attribute transient",
        examples: [
            .triggering(
                """
                <entity name="Link">
                    ↓<attribute name="target" optional="YES" attributeType="ObjectID"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Link"/>
                </configuration>
                """),
            .passing(
                """
                <entity name="Link">
                    <attribute name="target" optional="YES" attributeType="URI"/>
                    <attribute name="scratch" optional="YES" transient="YES" attributeType="Undefined"/>
                </entity>
                <configuration name="Default" usedWithCloudKit="YES">
                    <memberEntity name="Link"/>
                </configuration>
                """),
        ])

    package func check(_ model: Model, context: RuleContext) -> [Finding] {
        CloudKitScope.findings(in: model, context: context) { entity in
            entity.attributes.filter { !$0.isTransient && ($0.type == .undefined || $0.type == .objectID) }.map {
                (
                    "\(entity.name).\($0.name) has type \($0.type.xmlValue), which CloudKit cannot store", $0.location,
                    $0.name
                )
            }
        }
    }
}
